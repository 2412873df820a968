/** The operations of the incoming context: what routes, job handlers and the CLI call through execute(). */

export { acceptIncomingInvoice } from './accept-incoming-invoice.js';
export { disputeIncomingInvoice } from './dispute-incoming-invoice.js';
export { getIncomingInvoice } from './get-incoming-invoice.js';
export { getIncomingStatusToSend } from './get-incoming-status-to-send.js';
export { getIncomingSyncCursor } from './get-incoming-sync-cursor.js';
export { listIncomingInvoices } from './list-incoming-invoices.js';
export { listSubTenantIncomingInvoices } from './list-sub-tenant-incoming-invoices.js';
export { markIncomingInvoicePaid } from './mark-incoming-invoice-paid.js';
export { recordIncomingStatusSend } from './record-incoming-status-send.js';
export { registerIncomingInvoice } from './register-incoming-invoice.js';
export { rejectIncomingInvoice } from './reject-incoming-invoice.js';
export { scheduleIncomingSyncs } from './schedule-incoming-syncs.js';
export { storeIncomingPage } from './store-incoming-page.js';
export { syncIncomingInvoices } from './sync-incoming-invoices.js';
export {
  acceptTenantIncomingInvoice,
  disputeTenantIncomingInvoice,
  getTenantIncomingInvoice,
  markTenantIncomingInvoicePaid,
  rejectTenantIncomingInvoice,
} from './tenant-incoming-operations.js';
