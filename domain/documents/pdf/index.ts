/** The PDF side of document generation: the readable invoice and the Factur-X PDF/A-3. */
export { renderInvoicePdf } from './render-invoice-pdf.js';
export { FACTURX_CONFORMANCE_LEVELS, writeFacturX } from './write-facturx.js';
