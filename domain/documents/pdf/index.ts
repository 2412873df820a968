/**
 * The PDF side of document generation: the readable invoice and the Factur-X PDF/A-3.
 *
 * A small purpose-built writer rather than pdfkit (spec/DECISIONS.md prefers it): pdfkit parses and
 * subsets its fonts again for every document, which measured 31–35 Factur-X per second here (0.5
 * with the npm font's WOFF file), against a target of 150 per worker process. This writer parses
 * DejaVu Sans once, embeds a subset encoded once, and measures above 1000 per second.
 */
export { renderInvoicePdf } from './render-invoice-pdf.js';
export { FACTURX_CONFORMANCE_LEVELS, writeFacturX } from './write-facturx.js';
