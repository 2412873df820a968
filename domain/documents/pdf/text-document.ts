import type { FaceName } from './fonts.js';
import { CONTENT_WIDTH, GREY, LayoutCursor, MARGIN_X, RULE, SHADE } from './layout-cursor.js';
import { PAGE_HEIGHT, type Rgb } from './page-canvas.js';
import { writePdf } from './write-pdf.js';

/** A column of a table block: its title, its share of the page width (the shares add up to 1), its alignment. */
export interface TableColumn {
  title: string;
  share: number;
  align?: 'left' | 'right';
}

/** The pieces a text document is made of, laid out top to bottom. */
export type TextBlock =
  | { kind: 'heading'; text: string }
  | { kind: 'paragraph'; text: string; muted?: boolean }
  /** Label and value pairs, the labels in a narrow column. */
  | { kind: 'facts'; rows: readonly (readonly [string, string])[] }
  | { kind: 'table'; columns: readonly TableColumn[]; rows: readonly (readonly string[])[] };

/** A document of text (attestations, dossiers, registers): title, blocks, a footer line on every page. */
export interface TextDocument {
  title: string;
  subtitle?: string;
  /** YYYY-MM-DD: the document's date in its metadata. */
  date: string;
  footer: string;
  blocks: readonly TextBlock[];
}

const BODY = 9.5;
const LEADING = 13;
const SMALL = 8.5;
const SMALL_LEADING = 11;
const LABEL_WIDTH = 140;
/** Facts are set a little smaller, so that a SHA-256 in hex (64 digits) fits on one line. */
const FACT = 9;
const PAD = 3;

/**
 * A text document as a PDF/A-3b file on A4 pages, with the invoice's writer and fonts (DejaVu
 * Sans embedded, text extractable). Tables repeat their header on each page they run onto.
 */
export function renderTextDocumentPdf(doc: TextDocument): Buffer {
  const cursor = new LayoutCursor();
  for (const line of cursor.wrap(doc.title, 'bold', 16, CONTENT_WIDTH)) {
    cursor.line(MARGIN_X, cursor.y, line, 'bold', 16);
    cursor.y += 20;
  }
  if (doc.subtitle) {
    for (const line of cursor.wrap(doc.subtitle, 'regular', BODY, CONTENT_WIDTH)) {
      cursor.line(MARGIN_X, cursor.y, line, 'regular', BODY, GREY);
      cursor.y += LEADING;
    }
  }
  cursor.y += 6;
  cursor.page.line(MARGIN_X, cursor.y, MARGIN_X + CONTENT_WIDTH, cursor.y, 0.6, RULE);
  cursor.y += 12;
  for (const block of doc.blocks) drawBlock(cursor, block);
  drawFooters(cursor, doc.footer);
  return writePdf(cursor, { title: doc.title, date: doc.date, facturXLevel: null }, null);
}

function drawBlock(cursor: LayoutCursor, block: TextBlock): void {
  if (block.kind === 'heading') {
    cursor.ensure(18 + 3 * LEADING); // never a heading alone at the foot of a page
    cursor.y += 4;
    for (const line of cursor.wrap(block.text, 'bold', 11.5, CONTENT_WIDTH)) {
      cursor.line(MARGIN_X, cursor.y, line, 'bold', 11.5);
      cursor.y += 15;
    }
    cursor.y += 3;
    return;
  }
  if (block.kind === 'paragraph') {
    for (const line of cursor.wrap(block.text, 'regular', BODY, CONTENT_WIDTH)) {
      cursor.ensure(LEADING);
      cursor.line(MARGIN_X, cursor.y, line, 'regular', BODY, block.muted ? GREY : undefined);
      cursor.y += LEADING;
    }
    cursor.y += 6;
    return;
  }
  if (block.kind === 'facts') {
    for (const [label, value] of block.rows) {
      const labels = cursor.wrap(label, 'regular', FACT, LABEL_WIDTH - 8);
      const values = cursor.wrap(value || '—', 'regular', FACT, CONTENT_WIDTH - LABEL_WIDTH);
      const xs = [MARGIN_X, MARGIN_X + LABEL_WIDTH];
      drawRowLines(cursor, [labels, values], xs, LEADING, regular(2), [GREY, undefined], FACT);
    }
    cursor.y += 8;
    return;
  }
  drawTable(cursor, block.columns, block.rows);
}

function drawTable(cursor: LayoutCursor, columns: readonly TableColumn[], rows: readonly (readonly string[])[]): void {
  const widths = columns.map((c) => c.share * CONTENT_WIDTH);
  const lefts = widths.map((_, i) => MARGIN_X + widths.slice(0, i).reduce((sum, w) => sum + w, 0));
  const header = () => {
    const titles = columns.map((c, i) => cursor.wrap(c.title, 'bold', SMALL, widths[i] - 2 * PAD));
    const height = Math.max(...titles.map((t) => t.length)) * SMALL_LEADING + 6;
    cursor.page.fillRect(MARGIN_X, cursor.y, CONTENT_WIDTH, height, SHADE);
    titles.forEach((lines, i) => {
      lines.forEach((text, n) => {
        cursor.line(lefts[i] + PAD, cursor.y + 3 + n * SMALL_LEADING, text, 'bold', SMALL);
      });
    });
    cursor.y += height + 3;
  };
  cursor.ensure(4 * SMALL_LEADING + 20);
  header();
  cursor.onNewPage = header;
  for (const row of rows) {
    const cells = columns.map((_, i) => cursor.wrap(row[i] ?? '', 'regular', SMALL, widths[i] - 2 * PAD));
    const xs = columns.map((c, i) => (c.align === 'right' ? -(lefts[i] + widths[i] - PAD) : lefts[i] + PAD));
    drawRowLines(cursor, cells, xs, SMALL_LEADING, regular(columns.length), [], SMALL);
    cursor.page.line(MARGIN_X, cursor.y, MARGIN_X + CONTENT_WIDTH, cursor.y, 0.4, RULE);
    cursor.y += 3;
  }
  cursor.onNewPage = null;
  cursor.y += 8;
}

/**
 * Draws cells side by side. A row is kept whole on one page when it fits on a page, and then
 * drawn cell by cell, so that text extraction reads each cell in one piece; a row taller than a
 * page runs onto the next ones line by line. A negative x right-aligns the cell at -x.
 */
function drawRowLines(
  cursor: LayoutCursor,
  cells: readonly string[][],
  xs: readonly number[],
  leading: number,
  faces: readonly FaceName[],
  colors: readonly (Rgb | undefined)[],
  size = BODY,
): void {
  const count = Math.max(...cells.map((c) => c.length));
  cursor.ensure(count * leading + 2);
  const draw = (i: number, n: number, top: number) => {
    const text = cells[i][n];
    if (!text) return;
    if (xs[i] < 0) cursor.lineRight(-xs[i], top, text, faces[i], size, colors[i]);
    else cursor.line(xs[i], top, text, faces[i], size, colors[i]);
  };
  if (count * leading <= cursor.space) {
    for (let i = 0; i < cells.length; i++) {
      for (let n = 0; n < cells[i].length; n++) draw(i, n, cursor.y + n * leading);
    }
    cursor.y += count * leading + 2;
    return;
  }
  for (let n = 0; n < count; n++) {
    if (cursor.space < leading) cursor.newPage();
    for (let i = 0; i < cells.length; i++) draw(i, n, cursor.y);
    cursor.y += leading;
  }
  cursor.y += 2;
}

const regular = (n: number): FaceName[] => Array.from({ length: n }, () => 'regular');

function drawFooters(cursor: LayoutCursor, footer: string): void {
  const label = cursor.clean(footer);
  const top = PAGE_HEIGHT - 36;
  cursor.pages.forEach((page, i) => {
    page.text(MARGIN_X, top + 7, label, 'regular', 7, GREY);
    page.textRight(MARGIN_X + CONTENT_WIDTH, top + 7, `Page ${i + 1} / ${cursor.pages.length}`, 'regular', 7, GREY);
  });
}
