import type { InvoiceDocument } from '../invoice-document.js';
import { documentTitle } from './invoice-header.js';
import { layoutInvoice } from './layout-invoice.js';
import { writePdf } from './write-pdf.js';

/**
 * The human-readable invoice or credit note as a PDF (A4, French labels). It is itself a valid
 * PDF/A-3b file, fonts embedded, so it can be archived as is; `writeFacturX` adds the XML to the
 * same pages. Pure: the same document gives the same bytes (dates come from the issue date).
 */
export function renderInvoicePdf(doc: InvoiceDocument): Buffer {
  return writePdf(layoutInvoice(doc), pdfMetadata(doc, null), null);
}

/** Title and dates of the document's XMP metadata. */
export function pdfMetadata(doc: InvoiceDocument, facturXLevel: string | null) {
  const title = `${documentTitle(doc) === 'AVOIR' ? 'Avoir' : 'Facture'} ${doc.number}`;
  return { title, date: doc.issueDate, facturXLevel };
}
