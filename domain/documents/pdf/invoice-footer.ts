import type { InvoiceDocument } from '../invoice-document.js';
import { documentTitle } from './invoice-header.js';
import { CONTENT_BOTTOM, CONTENT_WIDTH, GREY, type LayoutCursor, MARGIN_X, RULE } from './layout-cursor.js';
import { PAGE_HEIGHT } from './page-canvas.js';

const NOTE_SIZE = 7.5;
const NOTE_LEADING = 9.5;

/**
 * The notes (BT-22) at the foot of the last page: for a business buyer, the mentions French law
 * requires on an invoice (late-payment penalties and the 40 EUR recovery indemnity, Code de commerce
 * L441-10 and D441-5). An individual's document carries none, so nothing is printed.
 */
export function drawInvoiceNotes(cursor: LayoutCursor, doc: InvoiceDocument): void {
  if (doc.notes.length === 0) return;
  const lines = doc.notes.flatMap((note) => cursor.wrap(note.text, 'regular', NOTE_SIZE, CONTENT_WIDTH));
  const height = lines.length * NOTE_LEADING + 8;
  cursor.ensure(height + 12);
  let y = CONTENT_BOTTOM - height;
  cursor.page.line(MARGIN_X, y, MARGIN_X + CONTENT_WIDTH, y, 0.5, RULE);
  y += 6;
  for (const text of lines) {
    cursor.line(MARGIN_X, y, text, 'regular', NOTE_SIZE, GREY);
    y += NOTE_LEADING;
  }
  cursor.y = CONTENT_BOTTOM;
}

/** Every page's footer: which document it belongs to and "Page i / n". */
export function drawPageFooters(cursor: LayoutCursor, doc: InvoiceDocument): void {
  const label = cursor.clean(`${documentTitle(doc)} N° ${doc.number}`);
  const top = PAGE_HEIGHT - 36;
  cursor.pages.forEach((page, i) => {
    page.text(MARGIN_X, top + 7, label, 'regular', 7, GREY);
    page.textRight(MARGIN_X + CONTENT_WIDTH, top + 7, `Page ${i + 1} / ${cursor.pages.length}`, 'regular', 7, GREY);
  });
}
