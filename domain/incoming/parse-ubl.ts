import { cac, cbc, UBL_CREDIT_NOTE_ROOT } from './invoice-namespaces.js';
import { type ParsedInvoice, type ParsedLine, type ParsedParty, siretOf } from './parsed-invoice.js';
import type { XmlElement } from './safe-xml.js';
import { child, children, hasName, textAt } from './xml-path.js';

/**
 * UBL 2.1 `Invoice` or `CreditNote` (OASIS UBL 2.1, EN 16931-3-2 syntax binding) into EN 16931
 * terms. The caller has checked the root's namespace; every element below it is matched in the
 * cbc / cac namespaces, whatever their prefixes.
 */
export function parseUbl(root: XmlElement): ParsedInvoice {
  const credit = hasName(root, UBL_CREDIT_NOTE_ROOT);
  const lineTag = cac(credit ? 'CreditNoteLine' : 'InvoiceLine');
  const quantityTag = cbc(credit ? 'CreditedQuantity' : 'InvoicedQuantity');
  const totals = child(root, cac('LegalMonetaryTotal'));
  const taxTotal =
    children(root, cac('TaxTotal')).find((t) => child(t, cac('TaxSubtotal'))) ?? child(root, cac('TaxTotal'));
  return {
    format: 'ubl',
    typeCode: textAt(root, cbc(credit ? 'CreditNoteTypeCode' : 'InvoiceTypeCode')),
    number: textAt(root, cbc('ID')),
    issueDate: textAt(root, cbc('IssueDate')),
    // UBL 2.1 CreditNote has no cbc:DueDate: BT-9 is cac:PaymentMeans/cbc:PaymentDueDate there.
    dueDate: textAt(root, cbc('DueDate')) ?? textAt(root, cac('PaymentMeans'), cbc('PaymentDueDate')),
    currency: textAt(root, cbc('DocumentCurrencyCode')),
    seller: party(child(root, cac('AccountingSupplierParty'), cac('Party'))),
    buyer: party(child(root, cac('AccountingCustomerParty'), cac('Party'))),
    totals: {
      lineTotal: textAt(totals, cbc('LineExtensionAmount')),
      taxBasisTotal: textAt(totals, cbc('TaxExclusiveAmount')),
      taxTotal: textAt(taxTotal, cbc('TaxAmount')),
      grandTotal: textAt(totals, cbc('TaxInclusiveAmount')),
      duePayable: textAt(totals, cbc('PayableAmount')),
    },
    lines: children(root, lineTag).map((line) => parseLine(line, quantityTag)),
  };
}

function party(element: XmlElement | null): ParsedParty {
  const legal = child(element, cac('PartyLegalEntity'), cbc('CompanyID'));
  const identification = child(element, cac('PartyIdentification'), cbc('ID'));
  const vat = children(element, cac('PartyTaxScheme')).find((s) => textAt(s, cac('TaxScheme'), cbc('ID')) === 'VAT');
  return {
    name:
      textAt(element, cac('PartyLegalEntity'), cbc('RegistrationName')) ??
      textAt(element, cac('PartyName'), cbc('Name')),
    siret:
      siretOf(legal?.text.trim() ?? null, legal?.attributes.schemeID) ??
      siretOf(identification?.text.trim() || null, identification?.attributes.schemeID),
    vatNumber: textAt(vat, cbc('CompanyID')),
    country: textAt(element, cac('PostalAddress'), cac('Country'), cbc('IdentificationCode')),
  };
}

function parseLine(line: XmlElement, quantityTag: ReturnType<typeof cbc>): ParsedLine {
  const quantity = child(line, quantityTag);
  const category = child(line, cac('Item'), cac('ClassifiedTaxCategory'));
  return {
    lineNumber: textAt(line, cbc('ID')) ?? '',
    description: textAt(line, cac('Item'), cbc('Name')),
    quantity: quantity?.text.trim() || null,
    unitCode: quantity?.attributes.unitCode ?? null,
    unitPrice: textAt(line, cac('Price'), cbc('PriceAmount')),
    netAmount: textAt(line, cbc('LineExtensionAmount')),
    vatCategory: textAt(category, cbc('ID')),
    vatRate: textAt(category, cbc('Percent')),
  };
}
