/** Public surface of the documents context for code outside it: what other contexts, api/ and workers/ use. */

export { writeCii } from './cii.js';
export {
  CII_PROFILES,
  type CiiProfile,
  type DocumentLine,
  type DocumentNote,
  type DocumentParty,
  type InvoiceDocument,
  OUTPUT_FORMATS,
  type OutputFormat,
  VAT_CATEGORIES,
  type VatCategory,
} from './invoice-document.js';
export { B2B_PAYMENT_NOTES } from './legal-notes.js';
export type { EmbeddedFont, FontProgram } from './pdf/font-program.js';
export { FACES, type FaceName } from './pdf/fonts.js';
export { formatAmount, formatDate } from './pdf/french-format.js';
export { renderInvoicePdf, writeFacturX } from './pdf/index.js';
export { renderTextDocumentPdf, type TextBlock, type TextDocument } from './pdf/text-document.js';
export { cleanText, textWidth } from './pdf/text-measure.js';
export { fileStem, type RenderedFile, renderFormat } from './render.js';
export { writeUbl } from './ubl.js';
export { DEFAULT_EXEMPTION, groupTaxes, NEEDS_EXEMPTION_REASON, round2, type VatGroup, vatGroups } from './vat.js';
