import {
  downloadBillingInvoice,
  getBillingInvoice,
  getBillingUsage,
  listBillingInvoices,
  listBillingTransactions,
} from '../../domain/billing/operations/index.js';
import type { RouteSpec } from '../http/route-spec.js';

const BILLING = '/api/v1/tenant/billing';
/** [TenantKey]: the tenant's own key (a sub-tenant's key is refused: the balance is the whole tenant's). */
const tenant = { tag: 'Tenant billing', auth: ['tenant_key'] } as const;

/** Usage, balance movements and the operator's monthly invoices (spec "Tenant billing"). */
export const tenantBillingRoutes: RouteSpec[] = [
  { ...tenant, method: 'get', path: `${BILLING}/usage`, operation: getBillingUsage },
  { ...tenant, method: 'get', path: `${BILLING}/transactions`, operation: listBillingTransactions, envelope: 'raw' },
  { ...tenant, method: 'get', path: `${BILLING}/invoices`, operation: listBillingInvoices, envelope: 'raw' },
  { ...tenant, method: 'get', path: `${BILLING}/invoices/{id}`, operation: getBillingInvoice },
  {
    ...tenant,
    method: 'get',
    path: `${BILLING}/invoices/{id}/download`,
    operation: downloadBillingInvoice,
    file: ['application/pdf'],
    errors: [409],
  },
];
