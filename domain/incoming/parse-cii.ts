import { ram, rsm, udt } from './invoice-namespaces.js';
import { type ParsedInvoice, type ParsedLine, type ParsedParty, siretOf } from './parsed-invoice.js';
import type { XmlElement } from './safe-xml.js';
import { child, children, textAt } from './xml-path.js';

/** `YYYYMMDD` (format 102) → `YYYY-MM-DD`; other formats are kept as written. */
function ciiDate(element: XmlElement | null): string | null {
  const value = textAt(element, udt('DateTimeString'));
  const match = value ? /^(\d{4})(\d{2})(\d{2})$/.exec(value) : null;
  return match ? `${match[1]}-${match[2]}-${match[3]}` : value;
}

/**
 * UN/CEFACT CII D16B `rsm:CrossIndustryInvoice` (Factur-X's XML) into EN 16931 terms. The caller
 * has checked the root's namespace; below it, elements are matched in the rsm / ram / udt
 * namespaces, whatever their prefixes.
 */
export function parseCii(root: XmlElement): ParsedInvoice {
  const document = child(root, rsm('ExchangedDocument'));
  const transaction = child(root, rsm('SupplyChainTradeTransaction'));
  const agreement = child(transaction, ram('ApplicableHeaderTradeAgreement'));
  const settlement = child(transaction, ram('ApplicableHeaderTradeSettlement'));
  const summation = child(settlement, ram('SpecifiedTradeSettlementHeaderMonetarySummation'));
  const currency = textAt(settlement, ram('InvoiceCurrencyCode'));
  // BT-110 is the TaxTotalAmount in the invoice currency (a second one may give BT-111).
  const taxTotals = children(summation, ram('TaxTotalAmount'));
  const taxTotal =
    taxTotals.find((t) => !t.attributes.currencyID || t.attributes.currencyID === currency) ?? taxTotals[0];
  return {
    format: 'cii',
    typeCode: textAt(document, ram('TypeCode')),
    number: textAt(document, ram('ID')),
    issueDate: ciiDate(child(document, ram('IssueDateTime'))),
    dueDate: ciiDate(child(settlement, ram('SpecifiedTradePaymentTerms'), ram('DueDateDateTime'))),
    currency,
    seller: party(child(agreement, ram('SellerTradeParty'))),
    buyer: party(child(agreement, ram('BuyerTradeParty'))),
    totals: {
      lineTotal: textAt(summation, ram('LineTotalAmount')),
      taxBasisTotal: textAt(summation, ram('TaxBasisTotalAmount')),
      taxTotal: taxTotal?.text.trim() || null,
      grandTotal: textAt(summation, ram('GrandTotalAmount')),
      duePayable: textAt(summation, ram('DuePayableAmount')),
    },
    lines: children(transaction, ram('IncludedSupplyChainTradeLineItem')).map(parseLine),
  };
}

function party(element: XmlElement | null): ParsedParty {
  const legal = child(element, ram('SpecifiedLegalOrganization'), ram('ID'));
  const global = child(element, ram('GlobalID'));
  const vat = children(element, ram('SpecifiedTaxRegistration'))
    .map((r) => child(r, ram('ID')))
    .find((id) => id?.attributes.schemeID === 'VA');
  return {
    name: textAt(element, ram('Name')),
    siret:
      siretOf(legal?.text.trim() ?? null, legal?.attributes.schemeID) ??
      siretOf(global?.text.trim() ?? null, global?.attributes.schemeID ?? 'none'),
    vatNumber: vat?.text.trim() || null,
    country: textAt(element, ram('PostalTradeAddress'), ram('CountryID')),
  };
}

function parseLine(line: XmlElement): ParsedLine {
  const quantity = child(line, ram('SpecifiedLineTradeDelivery'), ram('BilledQuantity'));
  const settlement = child(line, ram('SpecifiedLineTradeSettlement'));
  const tax = child(settlement, ram('ApplicableTradeTax'));
  return {
    lineNumber: textAt(line, ram('AssociatedDocumentLineDocument'), ram('LineID')) ?? '',
    description: textAt(line, ram('SpecifiedTradeProduct'), ram('Name')),
    quantity: quantity?.text.trim() || null,
    unitCode: quantity?.attributes.unitCode ?? null,
    unitPrice: textAt(line, ram('SpecifiedLineTradeAgreement'), ram('NetPriceProductTradePrice'), ram('ChargeAmount')),
    netAmount: textAt(settlement, ram('SpecifiedTradeSettlementLineMonetarySummation'), ram('LineTotalAmount')),
    vatCategory: textAt(tax, ram('CategoryCode')),
    vatRate: textAt(tax, ram('RateApplicablePercent')),
  };
}
