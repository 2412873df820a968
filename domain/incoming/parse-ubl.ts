import { type ParsedInvoice, type ParsedLine, type ParsedParty, siretOf } from './parsed-invoice.js';
import { child, children, textAt, type XmlElement } from './safe-xml.js';

/** UBL 2.1 `Invoice` or `CreditNote` (OASIS UBL 2.1, EN 16931-3-2 syntax binding) into EN 16931 terms. */
export function parseUbl(root: XmlElement): ParsedInvoice {
  const credit = root.name === 'CreditNote';
  const lineTag = credit ? 'CreditNoteLine' : 'InvoiceLine';
  const quantityTag = credit ? 'CreditedQuantity' : 'InvoicedQuantity';
  const totals = child(root, 'LegalMonetaryTotal');
  const taxTotal = children(root, 'TaxTotal').find((t) => child(t, 'TaxSubtotal')) ?? child(root, 'TaxTotal');
  return {
    format: 'ubl',
    typeCode: textAt(root, credit ? 'CreditNoteTypeCode' : 'InvoiceTypeCode'),
    number: textAt(root, 'ID'),
    issueDate: textAt(root, 'IssueDate'),
    // UBL 2.1 CreditNote has no cbc:DueDate: BT-9 is cac:PaymentMeans/cbc:PaymentDueDate there.
    dueDate: textAt(root, 'DueDate') ?? textAt(root, 'PaymentMeans', 'PaymentDueDate'),
    currency: textAt(root, 'DocumentCurrencyCode'),
    seller: party(child(root, 'AccountingSupplierParty', 'Party')),
    buyer: party(child(root, 'AccountingCustomerParty', 'Party')),
    totals: {
      lineTotal: textAt(totals, 'LineExtensionAmount'),
      taxBasisTotal: textAt(totals, 'TaxExclusiveAmount'),
      taxTotal: textAt(taxTotal, 'TaxAmount'),
      grandTotal: textAt(totals, 'TaxInclusiveAmount'),
      duePayable: textAt(totals, 'PayableAmount'),
    },
    lines: children(root, lineTag).map((line) => parseLine(line, quantityTag)),
  };
}

function party(element: XmlElement | null): ParsedParty {
  const legal = child(element, 'PartyLegalEntity', 'CompanyID');
  const vat = children(element, 'PartyTaxScheme').find((s) => textAt(s, 'TaxScheme', 'ID') === 'VAT');
  return {
    name: textAt(element, 'PartyLegalEntity', 'RegistrationName') ?? textAt(element, 'PartyName', 'Name'),
    siret:
      siretOf(legal?.text.trim() ?? null, legal?.attributes.schemeID) ??
      siretOf(
        textAt(element, 'PartyIdentification', 'ID'),
        child(element, 'PartyIdentification', 'ID')?.attributes.schemeID,
      ),
    vatNumber: textAt(vat, 'CompanyID'),
    country: textAt(element, 'PostalAddress', 'Country', 'IdentificationCode'),
  };
}

function parseLine(line: XmlElement, quantityTag: string): ParsedLine {
  const quantity = child(line, quantityTag);
  return {
    lineNumber: textAt(line, 'ID') ?? '',
    description: textAt(line, 'Item', 'Name'),
    quantity: quantity?.text.trim() || null,
    unitCode: quantity?.attributes.unitCode ?? null,
    unitPrice: textAt(line, 'Price', 'PriceAmount'),
    netAmount: textAt(line, 'LineExtensionAmount'),
    vatCategory: textAt(line, 'Item', 'ClassifiedTaxCategory', 'ID'),
    vatRate: textAt(line, 'Item', 'ClassifiedTaxCategory', 'Percent'),
  };
}
