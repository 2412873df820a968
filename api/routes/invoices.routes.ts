import { createInvoice } from '../../domain/invoicing/operations/create-invoice.js';
import { createInvoicesBulk } from '../../domain/invoicing/operations/create-invoices-bulk.js';
import { createTenantInvoice } from '../../domain/invoicing/operations/create-tenant-invoice.js';
import { ORIGINAL_FILE_MAX_BYTES } from '../../domain/invoicing/original-file.js';
import type { RouteSpec } from '../http/route-spec.js';

/** Creation answers 201 and takes `original_file` as multipart, or base64 in JSON (hence the body limit). */
const created = {
  status: 201,
  message: 'Invoice created.',
  upload: { field: 'original_file', maxBytes: ORIGINAL_FILE_MAX_BYTES },
  bodyLimit: '16mb',
} as const;

/** Spec "Invoices" [ApiKey] (a tenant's secret key is an API key too). */
export const invoiceRoutes: RouteSpec[] = [
  {
    method: 'post',
    path: '/api/v1/invoices',
    tag: 'Invoices',
    auth: ['api_key'],
    operation: createInvoice,
    ...created,
  },
];

/** Spec "Tenant invoices and credit notes" [TenantKey]. */
export const tenantInvoiceRoutes: RouteSpec[] = [
  {
    method: 'post',
    path: '/api/v1/tenant/invoices',
    tag: 'Tenant invoices',
    auth: ['tenant_key'],
    operation: createTenantInvoice,
    ...created,
  },
  {
    method: 'post',
    path: '/api/v1/tenant/sub-tenants/{subTenantId}/invoices',
    tag: 'Tenant invoices',
    auth: ['tenant_key'],
    operation: createTenantInvoice,
    ...created,
  },
  {
    method: 'post',
    path: '/api/v1/tenant/invoices/bulk',
    tag: 'Tenant invoices',
    auth: ['tenant_key'],
    operation: createInvoicesBulk,
    bodyLimit: '32mb',
  },
];

/** Spec "Sandbox" [ApiKey with sk_test_]: the same operations, refused to production keys. */
export const sandboxInvoiceRoutes: RouteSpec[] = [
  {
    method: 'post',
    path: '/api/v1/sandbox/invoices',
    tag: 'Sandbox',
    auth: ['api_key'],
    environment: 'sandbox',
    operation: createInvoice,
    ...created,
  },
];
