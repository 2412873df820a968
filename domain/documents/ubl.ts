import { exemptionOf, rateOf, ublDate, ublNoteText } from './document-rules.js';
import {
  type DocumentLine,
  type DocumentVatBreakdown,
  type InvoiceDocument,
  precedingInvoicesOf,
} from './invoice-document.js';
import { writeUblParties } from './ubl-parties.js';
import { escapeAttribute, escapeText, XmlWriter } from './xml-writer.js';

/** BT-24 of a UBL document: plain EN 16931, no CIUS. */
export const UBL_CUSTOMIZATION_ID = 'urn:cen.eu:en16931:2017';

const COMMON_NAMESPACES =
  ' xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"' +
  ' xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"';

/** What differs between the two UBL document types, fixed at module load. */
interface UblKind {
  root: string;
  prologue: string;
  typeCode: string;
  line: string;
  quantity: string;
  /** UBL 2.1 `CreditNote` has no `cbc:DueDate`: BT-9 goes in `cac:PaymentMeans/cbc:PaymentDueDate`. */
  dueDateInHeader: boolean;
}

function kind(root: string, typeCode: string, line: string, quantity: string): UblKind {
  const prologue =
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<${root} xmlns="urn:oasis:names:specification:ubl:schema:xsd:${root}-2"${COMMON_NAMESPACES}>` +
    `<cbc:CustomizationID>${UBL_CUSTOMIZATION_ID}</cbc:CustomizationID>`;
  return { root, prologue, typeCode, line, quantity, dueDateInHeader: root === 'Invoice' };
}

const INVOICE = kind('Invoice', 'cbc:InvoiceTypeCode', 'cac:InvoiceLine', 'cbc:InvoicedQuantity');
const CREDIT_NOTE = kind('CreditNote', 'cbc:CreditNoteTypeCode', 'cac:CreditNoteLine', 'cbc:CreditedQuantity');

const VAT_SCHEME = '<cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme>';

/**
 * The UBL 2.1 `Invoice` of an invoice (380, 386), or the `CreditNote` of a credit note (381),
 * under EN 16931 (CustomizationID `urn:cen.eu:en16931:2017`). Pure: the same document gives the
 * same bytes.
 */
export function writeUbl(doc: InvoiceDocument): Buffer {
  const k = doc.typeCode === '381' ? CREDIT_NOTE : INVOICE;
  const currency = escapeAttribute(doc.currency);
  const w = new XmlWriter(k.prologue);
  w.text('cbc:ID', doc.number).text('cbc:IssueDate', ublDate(doc.issueDate));
  if (k.dueDateInHeader && doc.dueDate) w.text('cbc:DueDate', ublDate(doc.dueDate));
  w.text(k.typeCode, doc.typeCode);
  for (const note of doc.notes) w.text('cbc:Note', ublNoteText(note.subjectCode, note.text));
  w.text('cbc:DocumentCurrencyCode', doc.currency);
  w.optionalText('cbc:BuyerReference', doc.buyerReference);
  for (const preceding of precedingInvoicesOf(doc)) {
    w.open('cac:BillingReference').open('cac:InvoiceDocumentReference');
    w.text('cbc:ID', preceding.number).text('cbc:IssueDate', ublDate(preceding.issueDate));
    w.close('cac:InvoiceDocumentReference').close('cac:BillingReference');
  }
  writeUblParties(w, doc);
  writeDelivery(w, doc);
  if (!k.dueDateInHeader && doc.dueDate) {
    // BT-81 is mandatory in BG-16; 1 = "instrument not defined" (UNTDID 4461), the model has none.
    w.raw('<cac:PaymentMeans><cbc:PaymentMeansCode>1</cbc:PaymentMeansCode>');
    w.text('cbc:PaymentDueDate', ublDate(doc.dueDate)).close('cac:PaymentMeans');
  }
  if (doc.paymentTerms) w.open('cac:PaymentTerms').text('cbc:Note', doc.paymentTerms).close('cac:PaymentTerms');
  w.open('cac:TaxTotal');
  amount(w, 'cbc:TaxAmount', currency, doc.totals.taxTotal);
  for (const row of doc.vatBreakdown) writeSubtotal(w, row, currency);
  w.close('cac:TaxTotal');
  writeMonetaryTotal(w, doc, currency);
  for (const line of doc.lines) writeLine(w, k, line, currency);
  w.close(k.root);
  return w.toBuffer();
}

/** BG-13: BT-72 actual delivery date and BT-80 deliver-to country (BR-IC-11, BR-IC-12). */
function writeDelivery(w: XmlWriter, doc: InvoiceDocument): void {
  if (!doc.deliveryDate && !doc.deliverToCountry) return;
  w.open('cac:Delivery');
  if (doc.deliveryDate) w.text('cbc:ActualDeliveryDate', ublDate(doc.deliveryDate));
  if (doc.deliverToCountry) {
    w.open('cac:DeliveryLocation').open('cac:Address').open('cac:Country');
    w.text('cbc:IdentificationCode', doc.deliverToCountry);
    w.close('cac:Country').close('cac:Address').close('cac:DeliveryLocation');
  }
  w.close('cac:Delivery');
}

/** One BG-23 row. */
function writeSubtotal(w: XmlWriter, row: DocumentVatBreakdown, currency: string): void {
  const exemption = exemptionOf(row);
  w.open('cac:TaxSubtotal');
  amount(w, 'cbc:TaxableAmount', currency, row.taxableAmount);
  amount(w, 'cbc:TaxAmount', currency, row.taxAmount);
  w.open('cac:TaxCategory').text('cbc:ID', row.category);
  w.optionalText('cbc:Percent', rateOf(row.category, row.rate));
  w.optionalText('cbc:TaxExemptionReasonCode', exemption.code);
  w.optionalText('cbc:TaxExemptionReason', exemption.reason);
  w.raw(VAT_SCHEME).close('cac:TaxCategory');
  w.close('cac:TaxSubtotal');
}

/** BG-22: BT-106, BT-109, BT-112, BT-113, BT-115. */
function writeMonetaryTotal(w: XmlWriter, doc: InvoiceDocument, currency: string): void {
  const totals = doc.totals;
  w.open('cac:LegalMonetaryTotal');
  amount(w, 'cbc:LineExtensionAmount', currency, totals.lineTotal);
  amount(w, 'cbc:TaxExclusiveAmount', currency, totals.taxBasisTotal);
  amount(w, 'cbc:TaxInclusiveAmount', currency, totals.grandTotal);
  amount(w, 'cbc:PrepaidAmount', currency, totals.prepaidAmount);
  amount(w, 'cbc:PayableAmount', currency, totals.duePayable);
  w.close('cac:LegalMonetaryTotal');
}

/** BG-25: BT-126, BT-129/BT-130, BT-131, BT-153, BT-151/BT-152, BT-146. */
function writeLine(w: XmlWriter, k: UblKind, line: DocumentLine, currency: string): void {
  w.open(k.line);
  w.text('cbc:ID', String(line.lineNumber));
  w.textWith(k.quantity, 'unitCode', line.unitCode, line.quantity);
  amount(w, 'cbc:LineExtensionAmount', currency, line.netAmount);
  w.open('cac:Item').text('cbc:Name', line.description);
  w.open('cac:ClassifiedTaxCategory').text('cbc:ID', line.vatCategory);
  w.optionalText('cbc:Percent', rateOf(line.vatCategory, line.vatRate));
  w.raw(VAT_SCHEME).close('cac:ClassifiedTaxCategory').close('cac:Item');
  w.open('cac:Price');
  amount(w, 'cbc:PriceAmount', currency, line.unitPrice);
  w.close('cac:Price');
  w.close(k.line);
}

/** An amount with its `currencyID` (already escaped once per document). */
function amount(w: XmlWriter, tag: string, currency: string, value: string): void {
  w.raw(`<${tag} currencyID="${currency}">${escapeText(value)}</${tag}>`);
}
