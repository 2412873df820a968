import type { InvoiceDocument } from '../invoice-document.js';
import { drawInvoiceNotes, drawPageFooters } from './invoice-footer.js';
import { drawInvoiceHeader } from './invoice-header.js';
import { drawLinesTable } from './invoice-lines-table.js';
import { drawInvoiceSummary } from './invoice-summary.js';
import { LayoutCursor } from './layout-cursor.js';

/** Lays the readable invoice out on A4 pages, top to bottom; the result is ready to serialise. */
export function layoutInvoice(doc: InvoiceDocument): LayoutCursor {
  const cursor = new LayoutCursor();
  drawInvoiceHeader(cursor, doc);
  drawLinesTable(cursor, doc);
  drawInvoiceSummary(cursor, doc);
  drawInvoiceNotes(cursor, doc);
  drawPageFooters(cursor, doc);
  return cursor;
}
