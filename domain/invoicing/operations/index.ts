/** The operations of the invoicing context: what routes, job handlers and the CLI call through execute(). */

export { convertInvoice } from './convert-invoice.js';
export { createInvoice } from './create-invoice.js';
export { createInvoicesBulk } from './create-invoices-bulk.js';
export { createTenantInvoice } from './create-tenant-invoice.js';
export { deleteInvoice } from './delete-invoice.js';
export { downloadInvoiceFile } from './download-invoice-file.js';
export { generateInvoiceDocuments } from './generate-invoice-documents.js';
export { getInvoice } from './get-invoice.js';
export { getInvoiceAuditTrail } from './get-invoice-audit-trail.js';
export { getInvoiceDownloadLink } from './get-invoice-download-link.js';
export { getSandboxInvoiceDownloadLink } from './get-sandbox-invoice-download-link.js';
export { listInvoices } from './list-invoices.js';
export { listSubTenantInvoices } from './list-sub-tenant-invoices.js';
export { updateInvoice } from './update-invoice.js';
