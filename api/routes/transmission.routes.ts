import { bulkInvoiceStatus } from '../../domain/transmission/operations/bulk-invoice-status.js';
import { bulkSubmitInvoices } from '../../domain/transmission/operations/bulk-submit-invoices.js';
import { markInvoicePaid } from '../../domain/transmission/operations/mark-invoice-paid.js';
import { receiveSuperpdpCallback } from '../../domain/transmission/operations/receive-superpdp-callback.js';
import { simulateInvoiceLifecycle } from '../../domain/transmission/operations/simulate-invoice-lifecycle.js';
import { submitInvoice } from '../../domain/transmission/operations/submit-invoice.js';
import type { RouteSpec } from '../http/route-spec.js';

/** Spec "Invoices" submit [ApiKey], and the payment of an outgoing invoice (beyond the specification). */
export const transmissionRoutes: RouteSpec[] = [
  {
    method: 'post',
    path: '/api/v1/invoices/{id}/submit',
    tag: 'Invoices',
    auth: ['api_key'],
    operation: submitInvoice,
    message: 'Invoice submitted.',
    // 503: no e-invoicing provider is configured for production invoices.
    errors: [409, 503],
  },
  {
    method: 'post',
    path: '/api/v1/invoices/{id}/mark-paid',
    tag: 'Invoices',
    auth: ['api_key'],
    operation: markInvoicePaid,
    message: 'Invoice marked as paid.',
    // 503 while the fiscal kill switch is active.
    errors: [409, 503],
  },
  {
    method: 'post',
    path: '/api/v1/tenant/invoices/bulk-submit',
    tag: 'Tenant invoices',
    auth: ['tenant_key'],
    operation: bulkSubmitInvoices,
    envelope: 'raw',
  },
  {
    method: 'post',
    path: '/api/v1/tenant/invoices/bulk-status',
    tag: 'Tenant invoices',
    auth: ['tenant_key'],
    operation: bulkInvoiceStatus,
    envelope: 'raw',
  },
  {
    method: 'post',
    path: '/api/v1/sandbox/invoices/{id}/submit',
    tag: 'Sandbox',
    auth: ['api_key'],
    environment: 'sandbox',
    operation: submitInvoice,
    message: 'Invoice submitted.',
    // 503: no e-invoicing provider is configured for production invoices.
    errors: [409, 503],
  },
  {
    method: 'post',
    path: '/api/v1/sandbox/invoices/{id}/simulate',
    tag: 'Sandbox',
    auth: ['api_key'],
    environment: 'sandbox',
    operation: simulateInvoiceLifecycle,
    message: 'Lifecycle code applied, or recorded until the upload lands.',
    errors: [409],
  },
];

const callback = (path: string): RouteSpec => ({
  method: 'post',
  path,
  tag: 'Inbound provider callbacks',
  auth: ['none'],
  operation: receiveSuperpdpCallback,
  envelope: 'raw',
  rateLimit: 'none',
  rawBody: { signatureHeader: 'X-SuperPDP-Signature' },
  // 401: a missing, wrong or stale signature.
  errors: [401],
});

/** Spec "Inbound provider callbacks": SuperPDP's sync triggers, at the root and under /api (DECISIONS.md "Routes"). */
export const superpdpCallbackRoutes: RouteSpec[] = [
  '/webhooks/superpdp',
  '/webhooks/superpdp/invoice',
  '/webhooks/superpdp/document',
]
  .flatMap((path) => [path, `/api${path}`])
  .map(callback);
