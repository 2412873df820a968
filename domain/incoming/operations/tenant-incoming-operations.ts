import type { Operation } from '../../shared/operation.js';
import { acceptIncomingInvoice } from './accept-incoming-invoice.js';
import { disputeIncomingInvoice } from './dispute-incoming-invoice.js';
import { getIncomingInvoice } from './get-incoming-invoice.js';
import { markIncomingInvoicePaid } from './mark-incoming-invoice-paid.js';
import { rejectIncomingInvoice } from './reject-incoming-invoice.js';

/**
 * The `/v1/tenant/invoices/incoming/{id}...` operations: the same as the non-tenant ones, for tenant
 * keys only (a user's credential is refused with 403, as on every [TenantKey] route).
 */
const forTenants = <I, O>(op: Operation<I, O>, name: string): Operation<I, O> => ({ ...op, name, callers: ['tenant'] });

export const getTenantIncomingInvoice = forTenants(getIncomingInvoice, 'get_tenant_incoming_invoice');
export const acceptTenantIncomingInvoice = forTenants(acceptIncomingInvoice, 'accept_tenant_incoming_invoice');
export const rejectTenantIncomingInvoice = forTenants(rejectIncomingInvoice, 'reject_tenant_incoming_invoice');
export const disputeTenantIncomingInvoice = forTenants(disputeIncomingInvoice, 'dispute_tenant_incoming_invoice');
export const markTenantIncomingInvoicePaid = forTenants(markIncomingInvoicePaid, 'mark_tenant_incoming_invoice_paid');
