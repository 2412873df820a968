import { INCOMING_FILE_MAX_BYTES } from '../../domain/incoming/index.js';
import {
  acceptIncomingInvoice,
  acceptTenantIncomingInvoice,
  disputeTenantIncomingInvoice,
  getIncomingInvoice,
  getTenantIncomingInvoice,
  listIncomingInvoices,
  listSubTenantIncomingInvoices,
  markIncomingInvoicePaid,
  markTenantIncomingInvoicePaid,
  registerIncomingInvoice,
  rejectIncomingInvoice,
  rejectTenantIncomingInvoice,
} from '../../domain/incoming/operations/index.js';
import type { RouteSpec } from '../http/route-spec.js';

const TENANT = { tag: 'Tenant incoming invoices', auth: ['tenant_key'] } as const;
const BY_ID = '/api/v1/tenant/invoices/incoming/{id}';

/** Spec "Tenant incoming invoices" [TenantKey], plus `dispute` (French status 207). */
export const tenantIncomingInvoiceRoutes: RouteSpec[] = [
  {
    ...TENANT,
    method: 'post',
    path: '/api/v1/tenant/sub-tenants/{id}/invoices/incoming',
    operation: registerIncomingInvoice,
    status: 201,
    message: 'Incoming invoice registered.',
    upload: { field: 'file', maxBytes: INCOMING_FILE_MAX_BYTES },
    bodyLimit: '16mb',
    errors: [409],
  },
  {
    ...TENANT,
    method: 'get',
    path: '/api/v1/tenant/sub-tenants/{id}/invoices/incoming',
    operation: listSubTenantIncomingInvoices,
    envelope: 'raw',
  },
  { ...TENANT, method: 'get', path: BY_ID, operation: getTenantIncomingInvoice },
  {
    ...TENANT,
    method: 'post',
    path: `${BY_ID}/accept`,
    operation: acceptTenantIncomingInvoice,
    message: 'Incoming invoice accepted.',
    errors: [409],
  },
  {
    ...TENANT,
    method: 'post',
    path: `${BY_ID}/reject`,
    operation: rejectTenantIncomingInvoice,
    message: 'Incoming invoice rejected.',
    errors: [409],
  },
  {
    ...TENANT,
    method: 'post',
    path: `${BY_ID}/dispute`,
    operation: disputeTenantIncomingInvoice,
    message: 'Incoming invoice disputed.',
    errors: [409],
  },
  {
    ...TENANT,
    method: 'post',
    path: `${BY_ID}/mark-paid`,
    operation: markTenantIncomingInvoicePaid,
    message: 'Incoming invoice marked as paid.',
    errors: [409],
  },
];

/** The dashboard and every secret key, like invoice reading. */
const USER = { tag: 'Incoming invoices', auth: ['bearer', 'cookie', 'api_key'] } as const;
const USER_BY_ID = '/api/v1/invoices/incoming/{id}';

/**
 * Spec "Non-tenant incoming invoices" (five endpoints, paths not shown): list, read, accept, reject
 * and mark-paid, under `/v1/invoices/incoming`. Registered before `/v1/invoices/{id}`.
 */
export const incomingInvoiceRoutes: RouteSpec[] = [
  { ...USER, method: 'get', path: '/api/v1/invoices/incoming', operation: listIncomingInvoices, envelope: 'raw' },
  { ...USER, method: 'get', path: USER_BY_ID, operation: getIncomingInvoice },
  {
    ...USER,
    method: 'post',
    path: `${USER_BY_ID}/accept`,
    operation: acceptIncomingInvoice,
    message: 'Incoming invoice accepted.',
    errors: [409],
  },
  {
    ...USER,
    method: 'post',
    path: `${USER_BY_ID}/reject`,
    operation: rejectIncomingInvoice,
    message: 'Incoming invoice rejected.',
    errors: [409],
  },
  {
    ...USER,
    method: 'post',
    path: `${USER_BY_ID}/mark-paid`,
    operation: markIncomingInvoicePaid,
    message: 'Incoming invoice marked as paid.',
    errors: [409],
  },
];
