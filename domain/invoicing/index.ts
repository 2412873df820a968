/**
 * Public surface of the invoicing context for code outside it: what other contexts, api/ and workers/ use.
 * Its operations are exported from ./operations/index.ts.
 */

export { countDocuments } from './document-counts.js';
export { findInvoiceDocument } from './document-store.js';
export {
  failureReason,
  fileSummary,
  type GeneratedDocuments,
  ON_DEMAND_MAX_LINES,
  type RenderOutcome,
  renderOutcome,
} from './generated-documents.js';
export type { InvoiceTypeCode, PrecedingInvoice, PreparedInvoice, PreparedLine } from './invoice.js';
export { prepareInvoice } from './invoice.js';
export { auditInvoice } from './invoice-audit.js';
export { DOWNLOAD_LINK_TTL_SECONDS } from './invoice-files.js';
export { invoiceOwnerOf } from './invoice-owner.js';
export {
  findReadableInvoice,
  findReadableInvoiceRow,
  type InvoiceReader,
  invoiceReaderOf,
} from './invoice-queries.js';
export type { InvoiceLineRow, InvoiceRow, StoredInvoice } from './invoice-row.js';
export { findInvoice, findInvoiceRow, type InvoiceOwner, lineColumns, linesOf } from './invoice-store.js';
export { type InvoiceView, toInvoiceView } from './invoice-view.js';
export { type InvoiceKind, issueInvoice } from './issue-invoice.js';
export { ORIGINAL_FILE_MAX_BYTES } from './original-file.js';
export { documentLineOf, toInvoiceDocument } from './to-document.js';
