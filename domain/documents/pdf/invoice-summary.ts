import type { InvoiceDocument } from '../invoice-document.js';
import { formatAmount, formatRate, vatCategoryLabel } from './french-format.js';
import { CONTENT_WIDTH, GREY, type LayoutCursor, MARGIN_X, RULE, SHADE } from './layout-cursor.js';

const SIZE = 8.5;
const LEADING = 11.5;
const TOTALS_WIDTH = 200;
const GAP = 24;
const VAT_WIDTH = CONTENT_WIDTH - TOTALS_WIDTH - GAP;
// VAT table columns: category, rate, taxable amount, VAT amount (right edges for the amounts)
const VAT_RATE_RIGHT = MARGIN_X + VAT_WIDTH - 150;
const VAT_BASE_RIGHT = MARGIN_X + VAT_WIDTH - 75;
const VAT_AMOUNT_RIGHT = MARGIN_X + VAT_WIDTH;

/**
 * The VAT breakdown (BG-23: one row per category and rate, with the exemption reason BT-120/121)
 * beside the totals (BG-22: net, VAT, gross, paid, due), kept together on one page; then the
 * currency and the payment terms (BT-20).
 */
export function drawInvoiceSummary(cursor: LayoutCursor, doc: InvoiceDocument): void {
  const reasons = doc.vatBreakdown.map((row) =>
    row.exemptionReason || row.exemptionReasonCode
      ? cursor.wrap(
          `Motif d'exonération : ${[row.exemptionReason, row.exemptionReasonCode && `(${row.exemptionReasonCode})`].filter(Boolean).join(' ')}`,
          'regular',
          7.5,
          VAT_WIDTH,
        )
      : [],
  );
  const vatHeight = 32 + doc.vatBreakdown.length * LEADING + reasons.flat().length * 9.5;
  const totals = totalRows(doc);
  cursor.ensure(Math.max(vatHeight, 18 + totals.length * 15) + 10);

  const top = cursor.y;
  cursor.line(MARGIN_X, top, 'DÉTAIL DE LA TVA', 'bold', 7.5, GREY);
  let y = top + 11;
  cursor.page.line(MARGIN_X, y, MARGIN_X + VAT_WIDTH, y, 0.5, RULE);
  y += 4;
  cursor.line(MARGIN_X, y, 'Catégorie', 'bold', SIZE);
  cursor.lineRight(VAT_RATE_RIGHT, y, 'Taux', 'bold', SIZE);
  cursor.lineRight(VAT_BASE_RIGHT, y, 'Base HT', 'bold', SIZE);
  cursor.lineRight(VAT_AMOUNT_RIGHT, y, 'TVA', 'bold', SIZE);
  y += LEADING + 2;
  doc.vatBreakdown.forEach((row, i) => {
    cursor.line(MARGIN_X, y, `${vatCategoryLabel(row.category)} (${row.category})`, 'regular', SIZE);
    cursor.lineRight(VAT_RATE_RIGHT, y, formatRate(row.rate), 'regular', SIZE);
    cursor.lineRight(VAT_BASE_RIGHT, y, cursor.clean(formatAmount(row.taxableAmount, doc.currency)), 'regular', SIZE);
    cursor.lineRight(VAT_AMOUNT_RIGHT, y, cursor.clean(formatAmount(row.taxAmount, doc.currency)), 'regular', SIZE);
    y += LEADING;
    for (const text of reasons[i]) {
      cursor.line(MARGIN_X + 8, y, text, 'regular', 7.5, GREY);
      y += 9.5;
    }
  });

  const left = MARGIN_X + CONTENT_WIDTH - TOTALS_WIDTH;
  const right = MARGIN_X + CONTENT_WIDTH;
  let ty = top + 15;
  for (const [label, amount, strong] of totals) {
    const face = strong ? 'bold' : 'regular';
    if (strong) cursor.page.fillRect(left, ty - 3, TOTALS_WIDTH, 15, SHADE);
    cursor.line(left + 4, ty, label, face, 9);
    cursor.lineRight(right - 4, ty, cursor.clean(formatAmount(amount, doc.currency), face), face, 9);
    ty += 15;
  }
  cursor.y = Math.max(y, ty) + 12;

  const currency = doc.currency === 'EUR' ? 'euros (EUR)' : doc.currency;
  const notes = [`Montants exprimés en ${currency}.`];
  if (doc.paymentTerms) notes.push(`Conditions de paiement : ${doc.paymentTerms}`);
  for (const note of notes) {
    for (const text of cursor.wrap(note, 'regular', SIZE, CONTENT_WIDTH)) {
      cursor.ensure(LEADING);
      cursor.line(MARGIN_X, cursor.y, text, 'regular', SIZE);
      cursor.y += LEADING;
    }
  }
}

/** Label, amount, emphasis. The line total is shown apart only when it differs from the tax basis. */
function totalRows(doc: InvoiceDocument): [string, string, boolean][] {
  const { totals } = doc;
  const rows: [string, string, boolean][] = [];
  if (totals.lineTotal !== totals.taxBasisTotal) rows.push(['Total des lignes HT', totals.lineTotal, false]);
  rows.push(
    ['Total HT', totals.taxBasisTotal, false],
    ['Total TVA', totals.taxTotal, false],
    ['Total TTC', totals.grandTotal, true],
    ['Déjà payé', totals.prepaidAmount, false],
    ['Net à payer', totals.duePayable, true],
  );
  return rows;
}
