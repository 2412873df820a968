import type { DocumentLine, InvoiceDocument } from '../invoice-document.js';
import { formatAmount, formatDecimal, formatRate, unitLabel } from './french-format.js';
import {
  CONTENT_BOTTOM,
  CONTENT_TOP,
  CONTENT_WIDTH,
  type LayoutCursor,
  MARGIN_X,
  RULE,
  SHADE,
} from './layout-cursor.js';

const SIZE = 8.5;
const LEADING = 11;
const PAD = 3;

interface Column {
  title: string;
  width: number;
  align: 'left' | 'right';
  cell: (line: DocumentLine, currency: string) => string;
}

const FIXED: Column[] = [
  { title: 'Qté', width: 40, align: 'right', cell: (l) => formatDecimal(l.quantity, 0) },
  { title: 'Unité', width: 32, align: 'left', cell: (l) => unitLabel(l.unitCode) },
  { title: 'P.U. HT', width: 66, align: 'right', cell: (l, c) => formatAmount(l.unitPrice, c) },
  { title: 'TVA', width: 38, align: 'right', cell: (l) => formatRate(l.vatRate) },
  { title: 'Montant HT', width: 78, align: 'right', cell: (l, c) => formatAmount(l.netAmount, c) },
];
const NUMBER_WIDTH = 20;
const DESCRIPTION_WIDTH = CONTENT_WIDTH - NUMBER_WIDTH - FIXED.reduce((sum, c) => sum + c.width, 0);
const COLUMNS: Column[] = [
  { title: 'N°', width: NUMBER_WIDTH, align: 'left', cell: () => '' },
  { title: 'Désignation', width: DESCRIPTION_WIDTH, align: 'left', cell: () => '' },
  ...FIXED,
];
const HEADER_HEIGHT = LEADING + 8;
// the room a row has on a page that holds nothing but the repeated table header
const FRESH_PAGE_SPACE = CONTENT_BOTTOM - CONTENT_TOP - HEADER_HEIGHT;
const LEFTS = COLUMNS.map((_, i) => MARGIN_X + COLUMNS.slice(0, i).reduce((sum, c) => sum + c.width, 0));

/**
 * The invoice lines (BG-25), one row each: number, description wrapped in its column, quantity,
 * unit, net unit price, VAT rate, net amount. The table flows over as many pages as it needs, its
 * header repeated on each; a description longer than a page continues on the next.
 */
export function drawLinesTable(cursor: LayoutCursor, doc: InvoiceDocument): void {
  cursor.ensure(LEADING * 4);
  drawTableHeader(cursor);
  cursor.onNewPage = () => drawTableHeader(cursor);
  for (const line of doc.lines) drawRow(cursor, line, doc.currency);
  cursor.onNewPage = null;
  cursor.y += 10;
}

function drawTableHeader(cursor: LayoutCursor): void {
  cursor.page.fillRect(MARGIN_X, cursor.y, CONTENT_WIDTH, LEADING + 5, SHADE);
  COLUMNS.forEach((column, i) => {
    drawCell(cursor, i, cursor.y + 3, column.title, 'bold');
  });
  cursor.y += HEADER_HEIGHT;
}

function drawRow(cursor: LayoutCursor, line: DocumentLine, currency: string): void {
  const description = cursor.wrap(line.description, 'regular', SIZE, DESCRIPTION_WIDTH - 2 * PAD);
  const fitsOnePage = description.length <= linesIn(FRESH_PAGE_SPACE);
  let next = 0;
  while (next < description.length) {
    const room = linesIn(cursor.space);
    const left = description.length - next;
    // keep a row whole when a new page can hold it; otherwise fill this page and continue
    if (room < 1 || (room < left && next === 0 && fitsOnePage)) {
      cursor.newPage();
      continue;
    }
    const part = description.slice(next, next + Math.min(room, left));
    // drawn in reading order (number, description's first line, figures, rest), which text extraction follows
    part.forEach((text, i) => {
      if (i === 0 && next === 0) drawCell(cursor, 0, cursor.y, String(line.lineNumber), 'regular');
      drawCell(cursor, 1, cursor.y + i * LEADING, text, 'regular');
      if (i === 0 && next === 0) {
        for (let column = 2; column < COLUMNS.length; column++) {
          drawCell(cursor, column, cursor.y, cursor.clean(COLUMNS[column].cell(line, currency)), 'regular');
        }
      }
    });
    next += part.length;
    cursor.y += part.length * LEADING + 2;
    cursor.page.line(MARGIN_X, cursor.y, MARGIN_X + CONTENT_WIDTH, cursor.y, 0.4, RULE);
    cursor.y += 3;
  }
}

function drawCell(cursor: LayoutCursor, index: number, top: number, text: string, face: 'regular' | 'bold'): void {
  const column = COLUMNS[index];
  if (column.align === 'right') cursor.lineRight(LEFTS[index] + column.width - PAD, top, text, face, SIZE);
  else cursor.line(LEFTS[index] + PAD, top, text, face, SIZE);
}

/** How many description lines fit in `space` points, with the row's rule below them. */
const linesIn = (space: number): number => Math.floor((space - 5) / LEADING);
