import { type ParsedInvoice, type ParsedLine, type ParsedParty, siretOf } from './parsed-invoice.js';
import { child, children, textAt, type XmlElement } from './safe-xml.js';

/** `YYYYMMDD` (format 102) → `YYYY-MM-DD`; other formats are kept as written. */
function ciiDate(element: XmlElement | null): string | null {
  const value = textAt(element, 'DateTimeString');
  const match = value ? /^(\d{4})(\d{2})(\d{2})$/.exec(value) : null;
  return match ? `${match[1]}-${match[2]}-${match[3]}` : value;
}

/** UN/CEFACT CII D16B `rsm:CrossIndustryInvoice` (Factur-X's XML) into EN 16931 terms. */
export function parseCii(root: XmlElement): ParsedInvoice {
  const document = child(root, 'ExchangedDocument');
  const transaction = child(root, 'SupplyChainTradeTransaction');
  const agreement = child(transaction, 'ApplicableHeaderTradeAgreement');
  const settlement = child(transaction, 'ApplicableHeaderTradeSettlement');
  const summation = child(settlement, 'SpecifiedTradeSettlementHeaderMonetarySummation');
  const currency = textAt(settlement, 'InvoiceCurrencyCode');
  // BT-110 is the TaxTotalAmount in the invoice currency (a second one may give BT-111).
  const taxTotals = children(summation, 'TaxTotalAmount');
  const taxTotal =
    taxTotals.find((t) => !t.attributes.currencyID || t.attributes.currencyID === currency) ?? taxTotals[0];
  return {
    format: 'cii',
    typeCode: textAt(document, 'TypeCode'),
    number: textAt(document, 'ID'),
    issueDate: ciiDate(child(document, 'IssueDateTime')),
    dueDate: ciiDate(child(settlement, 'SpecifiedTradePaymentTerms', 'DueDateDateTime')),
    currency,
    seller: party(child(agreement, 'SellerTradeParty')),
    buyer: party(child(agreement, 'BuyerTradeParty')),
    totals: {
      lineTotal: textAt(summation, 'LineTotalAmount'),
      taxBasisTotal: textAt(summation, 'TaxBasisTotalAmount'),
      taxTotal: taxTotal?.text.trim() || null,
      grandTotal: textAt(summation, 'GrandTotalAmount'),
      duePayable: textAt(summation, 'DuePayableAmount'),
    },
    lines: children(transaction, 'IncludedSupplyChainTradeLineItem').map(parseLine),
  };
}

function party(element: XmlElement | null): ParsedParty {
  const legal = child(element, 'SpecifiedLegalOrganization', 'ID');
  const global = child(element, 'GlobalID');
  const vat = children(element, 'SpecifiedTaxRegistration')
    .map((r) => child(r, 'ID'))
    .find((id) => id?.attributes.schemeID === 'VA');
  return {
    name: textAt(element, 'Name'),
    siret:
      siretOf(legal?.text.trim() ?? null, legal?.attributes.schemeID) ??
      siretOf(global?.text.trim() ?? null, global?.attributes.schemeID ?? 'none'),
    vatNumber: vat?.text.trim() || null,
    country: textAt(element, 'PostalTradeAddress', 'CountryID'),
  };
}

function parseLine(line: XmlElement): ParsedLine {
  const quantity = child(line, 'SpecifiedLineTradeDelivery', 'BilledQuantity');
  const tax = child(line, 'SpecifiedLineTradeSettlement', 'ApplicableTradeTax');
  return {
    lineNumber: textAt(line, 'AssociatedDocumentLineDocument', 'LineID') ?? '',
    description: textAt(line, 'SpecifiedTradeProduct', 'Name'),
    quantity: quantity?.text.trim() || null,
    unitCode: quantity?.attributes.unitCode ?? null,
    unitPrice: textAt(line, 'SpecifiedLineTradeAgreement', 'NetPriceProductTradePrice', 'ChargeAmount'),
    netAmount: textAt(
      line,
      'SpecifiedLineTradeSettlement',
      'SpecifiedTradeSettlementLineMonetarySummation',
      'LineTotalAmount',
    ),
    vatCategory: textAt(tax, 'CategoryCode'),
    vatRate: textAt(tax, 'RateApplicablePercent'),
  };
}
