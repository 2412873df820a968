/** The operations of the transmission context: what routes, job handlers and the CLI call through execute(). */

export { bulkInvoiceStatus } from './bulk-invoice-status.js';
export { bulkSubmitInvoices } from './bulk-submit-invoices.js';
export { connectProvider } from './connect-provider.js';
export { getInvoiceStatusTarget } from './get-invoice-status-target.js';
export { getProviderSyncCursor } from './get-provider-sync-cursor.js';
export { listConnectionsToSync } from './list-connections-to-sync.js';
export { markInvoicePaid } from './mark-invoice-paid.js';
export { prepareInvoiceTransmission } from './prepare-invoice-transmission.js';
export { queueProviderSyncs } from './queue-provider-syncs.js';
export { receiveSuperpdpCallback } from './receive-superpdp-callback.js';
export { recordInvoiceUpload } from './record-invoice-upload.js';
export { recordProviderEvents } from './record-provider-events.js';
export { simulateInvoiceLifecycle } from './simulate-invoice-lifecycle.js';
export { submitInvoice } from './submit-invoice.js';
