import { type DocumentParty, type InvoiceDocument, precedingInvoicesOf } from '../invoice-document.js';
import { countryName, formatDate } from './french-format.js';
import { CONTENT_WIDTH, GREY, type LayoutCursor, MARGIN_X, RULE } from './layout-cursor.js';

const BODY = 8.5;
const LEADING = 11.5;

/** The printed title of a document type (BT-3): invoice, credit note, prepayment invoice. */
export function documentTitle(doc: InvoiceDocument): string {
  if (doc.title) return doc.title;
  if (doc.typeCode === '381') return 'AVOIR';
  if (doc.typeCode === '386') return "FACTURE D'ACOMPTE";
  return 'FACTURE';
}

/** Page 1's top: title and number, the dates and references, then the seller and buyer side by side. */
export function drawInvoiceHeader(cursor: LayoutCursor, doc: InvoiceDocument): void {
  const right = MARGIN_X + CONTENT_WIDTH;
  cursor.line(MARGIN_X, cursor.y, documentTitle(doc), 'bold', 20);
  cursor.lineRight(right, cursor.y + 6, cursor.clean(`N° ${doc.number}`, 'bold'), 'bold', 12);
  cursor.y += 36;

  const facts: [string, string][] = [["Date d'émission", formatDate(doc.issueDate)]];
  if (doc.dueDate) facts.push(["Date d'échéance", formatDate(doc.dueDate)]);
  if (doc.deliveryDate) facts.push(['Date de livraison', formatDate(doc.deliveryDate)]);
  if (doc.deliverToCountry) facts.push(['Pays de livraison', countryName(doc.deliverToCountry)]);
  if (doc.buyerReference) facts.push(['Référence acheteur', doc.buyerReference]);
  for (const { number, issueDate } of precedingInvoicesOf(doc)) {
    facts.push([
      doc.typeCode === '381' ? 'Facture d’origine' : 'Acompte déduit',
      `N° ${number} du ${formatDate(issueDate)}`,
    ]);
  }
  for (const [label, value] of facts) {
    cursor.line(MARGIN_X, cursor.y, `${label} :`, 'regular', BODY, GREY);
    for (const text of cursor.wrap(value, 'regular', BODY, CONTENT_WIDTH - 110)) {
      cursor.line(MARGIN_X + 110, cursor.y, text, 'regular', BODY);
      cursor.y += LEADING;
    }
  }
  cursor.y += 14;

  const width = (CONTENT_WIDTH - 24) / 2;
  const sellerEnd = drawParty(cursor, 'Vendeur', doc.seller, MARGIN_X, width);
  const buyerEnd = drawParty(cursor, 'Client', doc.buyer, MARGIN_X + width + 24, width);
  cursor.y = Math.max(sellerEnd, buyerEnd) + 18;
}

/** One party's block; returns the y below it. Only what the model carries is printed. */
function drawParty(cursor: LayoutCursor, caption: string, party: DocumentParty, x: number, width: number): number {
  let y = cursor.y;
  cursor.line(x, y, caption.toUpperCase(), 'bold', 7.5, GREY);
  y += 11;
  cursor.page.line(x, y, x + width, y, 0.5, RULE);
  y += 5;
  for (const text of cursor.wrap(party.name, 'bold', 9.5, width)) {
    cursor.line(x, y, text, 'bold', 9.5);
    y += 12.5;
  }
  const { address } = party;
  // A party known by its country only (a billing invoice's tenant) prints no empty postcode line.
  const rows = [
    address.line1,
    address.line2,
    `${address.postalCode} ${address.city}`.trim(),
    countryName(address.country),
  ];
  if (party.siret) rows.push(`SIRET : ${party.siret}`);
  if (party.vatNumber) rows.push(`N° TVA intracommunautaire : ${party.vatNumber}`);
  if (party.legalId) rows.push(`Identifiant légal : ${party.legalId}`);
  for (const row of rows) {
    if (!row) continue;
    for (const text of cursor.wrap(row, 'regular', BODY, width)) {
      cursor.line(x, y, text, 'regular', BODY);
      y += LEADING;
    }
  }
  return y;
}
