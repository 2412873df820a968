import { writeCiiDateTime } from './cii-date-time.js';
import { writeCiiAgreement } from './cii-parties.js';
import { writeCiiSettlement } from './cii-settlement.js';
import { rateOf } from './document-rules.js';
import type { CiiProfile, DocumentLine, InvoiceDocument } from './invoice-document.js';
import { escapeText, XmlWriter } from './xml-writer.js';

/** BT-24 for each Factur-X profile: the guideline identifiers of the Factur-X 1.0 specification. */
export const CII_GUIDELINE_IDS: Record<CiiProfile, string> = {
  minimum: 'urn:factur-x.eu:1p0:minimum',
  basicwl: 'urn:factur-x.eu:1p0:basicwl',
  basic: 'urn:cen.eu:en16931:2017#compliant#urn:factur-x.eu:1p0:basic',
  en16931: 'urn:cen.eu:en16931:2017',
  extended: 'urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended',
};

const NAMESPACES =
  'xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"' +
  ' xmlns:qdt="urn:un:unece:uncefact:data:standard:QualifiedDataType:100"' +
  ' xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"' +
  ' xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100"';

// Everything up to the first variable value, built once per profile.
const PROLOGUES = Object.fromEntries(
  Object.entries(CII_GUIDELINE_IDS).map(([profile, id]) => [
    profile,
    `<?xml version="1.0" encoding="UTF-8"?>\n<rsm:CrossIndustryInvoice ${NAMESPACES}>` +
      '<rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter>' +
      `<ram:ID>${escapeText(id)}</ram:ID>` +
      '</ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>',
  ]),
) as Record<CiiProfile, string>;

/** MINIMUM and BASIC WL carry no invoice lines (Factur-X 1.0, profile descriptions). */
const PROFILES_WITH_LINES: ReadonlySet<CiiProfile> = new Set(['basic', 'en16931', 'extended']);

/**
 * The UN/CEFACT CII D16B `rsm:CrossIndustryInvoice` of an invoice or credit note, holding exactly
 * what the Factur-X profile allows (BT-24 names it). Pure: the same document gives the same bytes.
 */
export function writeCii(doc: InvoiceDocument, profile: CiiProfile = 'en16931'): Buffer {
  const prologue = PROLOGUES[profile];
  if (!prologue) throw new Error(`unknown Factur-X profile: ${profile}`);
  const w = new XmlWriter(prologue);
  const minimum = profile === 'minimum';
  writeExchangedDocument(w, doc, minimum);
  w.open('rsm:SupplyChainTradeTransaction');
  if (PROFILES_WITH_LINES.has(profile)) for (const line of doc.lines) writeLine(w, line);
  writeCiiAgreement(w, doc, minimum);
  writeDelivery(w, doc, minimum);
  writeCiiSettlement(w, doc, minimum);
  w.close('rsm:SupplyChainTradeTransaction');
  w.close('rsm:CrossIndustryInvoice');
  return w.toBuffer();
}

/** BT-1, BT-3, BT-2 and the notes (BT-21/BT-22; MINIMUM has none). */
function writeExchangedDocument(w: XmlWriter, doc: InvoiceDocument, minimum: boolean): void {
  w.open('rsm:ExchangedDocument');
  w.text('ram:ID', doc.number);
  w.text('ram:TypeCode', doc.typeCode);
  writeCiiDateTime(w, 'ram:IssueDateTime', doc.issueDate);
  if (!minimum) {
    for (const note of doc.notes) {
      w.open('ram:IncludedNote');
      w.text('ram:Content', note.text);
      w.optionalText('ram:SubjectCode', note.subjectCode);
      w.close('ram:IncludedNote');
    }
  }
  w.close('rsm:ExchangedDocument');
}

/** BG-25: BT-126, BT-153, BT-146, BT-129/BT-130, BT-151/BT-152, BT-131. */
function writeLine(w: XmlWriter, line: DocumentLine): void {
  w.open('ram:IncludedSupplyChainTradeLineItem');
  w.open('ram:AssociatedDocumentLineDocument').text('ram:LineID', String(line.lineNumber));
  w.close('ram:AssociatedDocumentLineDocument');
  w.open('ram:SpecifiedTradeProduct').text('ram:Name', line.description).close('ram:SpecifiedTradeProduct');
  w.open('ram:SpecifiedLineTradeAgreement').open('ram:NetPriceProductTradePrice');
  w.text('ram:ChargeAmount', line.unitPrice);
  w.close('ram:NetPriceProductTradePrice').close('ram:SpecifiedLineTradeAgreement');
  w.open('ram:SpecifiedLineTradeDelivery');
  w.textWith('ram:BilledQuantity', 'unitCode', line.unitCode, line.quantity);
  w.close('ram:SpecifiedLineTradeDelivery');
  w.open('ram:SpecifiedLineTradeSettlement').open('ram:ApplicableTradeTax');
  w.raw('<ram:TypeCode>VAT</ram:TypeCode>').text('ram:CategoryCode', line.vatCategory);
  w.optionalText('ram:RateApplicablePercent', rateOf(line.vatCategory, line.vatRate));
  w.close('ram:ApplicableTradeTax').open('ram:SpecifiedTradeSettlementLineMonetarySummation');
  w.text('ram:LineTotalAmount', line.netAmount);
  w.close('ram:SpecifiedTradeSettlementLineMonetarySummation').close('ram:SpecifiedLineTradeSettlement');
  w.close('ram:IncludedSupplyChainTradeLineItem');
}

/** BG-13: BT-80 deliver-to country and BT-72 actual delivery date (BR-IC-11, BR-IC-12). */
function writeDelivery(w: XmlWriter, doc: InvoiceDocument, minimum: boolean): void {
  if (minimum || (!doc.deliverToCountry && !doc.deliveryDate)) {
    w.raw('<ram:ApplicableHeaderTradeDelivery/>');
    return;
  }
  w.open('ram:ApplicableHeaderTradeDelivery');
  if (doc.deliverToCountry) {
    w.open('ram:ShipToTradeParty').open('ram:PostalTradeAddress').text('ram:CountryID', doc.deliverToCountry);
    w.close('ram:PostalTradeAddress').close('ram:ShipToTradeParty');
  }
  if (doc.deliveryDate) {
    w.open('ram:ActualDeliverySupplyChainEvent');
    writeCiiDateTime(w, 'ram:OccurrenceDateTime', doc.deliveryDate);
    w.close('ram:ActualDeliverySupplyChainEvent');
  }
  w.close('ram:ApplicableHeaderTradeDelivery');
}
