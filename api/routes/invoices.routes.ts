import { convertInvoice } from '../../domain/invoicing/operations/convert-invoice.js';
import { createInvoice } from '../../domain/invoicing/operations/create-invoice.js';
import { createInvoicesBulk } from '../../domain/invoicing/operations/create-invoices-bulk.js';
import { createTenantInvoice } from '../../domain/invoicing/operations/create-tenant-invoice.js';
import { deleteInvoice } from '../../domain/invoicing/operations/delete-invoice.js';
import { downloadInvoiceFile } from '../../domain/invoicing/operations/download-invoice-file.js';
import { getInvoice } from '../../domain/invoicing/operations/get-invoice.js';
import { getInvoiceAuditTrail } from '../../domain/invoicing/operations/get-invoice-audit-trail.js';
import { getInvoiceDownloadLink } from '../../domain/invoicing/operations/get-invoice-download-link.js';
import { getSandboxInvoiceDownloadLink } from '../../domain/invoicing/operations/get-sandbox-invoice-download-link.js';
import { listInvoices } from '../../domain/invoicing/operations/list-invoices.js';
import { listSubTenantInvoices } from '../../domain/invoicing/operations/list-sub-tenant-invoices.js';
import { updateInvoice } from '../../domain/invoicing/operations/update-invoice.js';
import { ORIGINAL_FILE_MAX_BYTES } from '../../domain/invoicing/original-file.js';
import type { RouteSpec } from '../http/route-spec.js';

/** Creation answers 201 and takes `original_file` as multipart, or base64 in JSON (hence the body limit). */
const created = {
  status: 201,
  message: 'Invoice created.',
  upload: { field: 'original_file', maxBytes: ORIGINAL_FILE_MAX_BYTES },
  bodyLimit: '16mb',
} as const;

/**
 * 503 while the fiscal kill switch is active; a production invoice is also paid for from the prepaid
 * balance: 402 INSUFFICIENT_BALANCE when it is short.
 */
const charged = { ...created, errors: [402, 503] } as const;

/** Spec "Invoices" [ApiKey] (a tenant's secret key is an API key too). */
export const invoiceRoutes: RouteSpec[] = [
  {
    method: 'post',
    path: '/api/v1/invoices',
    tag: 'Invoices',
    auth: ['api_key'],
    operation: createInvoice,
    ...charged,
  },
  {
    method: 'post',
    path: '/api/v1/invoices/convert',
    tag: 'Invoices',
    auth: ['api_key'],
    operation: convertInvoice,
    message: 'Invoice converted.',
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
    ...charged,
  },
  {
    method: 'post',
    path: '/api/v1/tenant/sub-tenants/{subTenantId}/invoices',
    tag: 'Tenant invoices',
    auth: ['tenant_key'],
    operation: createTenantInvoice,
    ...charged,
  },
  {
    method: 'post',
    path: '/api/v1/tenant/invoices/bulk',
    tag: 'Tenant invoices',
    auth: ['tenant_key'],
    operation: createInvoicesBulk,
    bodyLimit: '32mb',
    errors: [503],
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
    errors: [503],
  },
];

const BY_ID = '/api/v1/invoices/{id}';
/** [Bearer] in the reference, [ApiKey] in the tutorials: the dashboard and every secret key. */
const reading = { tag: 'Invoices', auth: ['bearer', 'cookie', 'api_key'] } as const;

/** Reading, files, audit trail, changes and deletion of invoices (spec "Invoices"). */
export const invoiceReadingRoutes: RouteSpec[] = [
  { ...reading, method: 'get', path: '/api/v1/invoices', operation: listInvoices, envelope: 'raw' },
  { ...reading, method: 'get', path: BY_ID, operation: getInvoice },
  {
    ...reading,
    method: 'patch',
    path: BY_ID,
    operation: updateInvoice,
    message: 'Invoice updated.',
    errors: [409],
  },
  {
    ...reading,
    method: 'delete',
    path: BY_ID,
    operation: deleteInvoice,
    message: 'Invoice deleted.',
    errors: [409],
  },
  {
    ...reading,
    method: 'get',
    path: `${BY_ID}/download/{type}`,
    operation: getInvoiceDownloadLink,
    envelope: 'raw',
    errors: [409],
  },
  { ...reading, method: 'get', path: `${BY_ID}/audit-trail`, operation: getInvoiceAuditTrail, envelope: 'raw' },
];

/** Spec "Tenant invoices and credit notes": one sub-tenant's invoices. */
export const tenantInvoiceReadingRoutes: RouteSpec[] = [
  {
    method: 'get',
    path: '/api/v1/tenant/sub-tenants/{subTenantId}/invoices',
    tag: 'Tenant invoices',
    auth: ['tenant_key'],
    operation: listSubTenantInvoices,
    envelope: 'raw',
  },
];

const sandbox = { tag: 'Sandbox', auth: ['api_key'], environment: 'sandbox' } as const;

/** Spec "Sandbox": reading, files and audit trail, for sk_test_ keys only. */
export const sandboxInvoiceReadingRoutes: RouteSpec[] = [
  { ...sandbox, method: 'get', path: '/api/v1/sandbox/invoices', operation: listInvoices, envelope: 'raw' },
  { ...sandbox, method: 'get', path: '/api/v1/sandbox/invoices/{id}', operation: getInvoice },
  {
    ...sandbox,
    method: 'get',
    path: '/api/v1/sandbox/invoices/{id}/audit-trail',
    operation: getInvoiceAuditTrail,
    envelope: 'raw',
  },
  {
    ...sandbox,
    method: 'get',
    path: '/api/v1/sandbox/invoices/{id}/download/{type}',
    operation: getSandboxInvoiceDownloadLink,
    envelope: 'raw',
    errors: [409],
  },
];

/**
 * Where download links point (beyond the specification, which only says links last 15 minutes):
 * no credentials, the signed token is the permission.
 */
export const invoiceFileRoutes: RouteSpec[] = [
  {
    method: 'get',
    path: '/api/v1/files/{token}',
    tag: 'Invoices',
    auth: ['none'],
    operation: downloadInvoiceFile,
    file: ['application/pdf', 'application/xml'],
    errors: [403, 410],
  },
];
