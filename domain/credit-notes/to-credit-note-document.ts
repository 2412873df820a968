import { Decimal } from '../billing/index.js';
import { type InvoiceDocument, type VatCategory, vatGroups } from '../documents/index.js';
import { documentLineOf, type StoredInvoice, toInvoiceDocument } from '../invoicing/index.js';
import type { StoredCreditNote } from './credit-note-row.js';

const frenchDate = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

/**
 * The document model of a credit note (EN 16931 BT-3 = 381): the invoice's parties, exactly as
 * its own documents print them (so an individual buyer again has no BT-46/47/48 and no B2B
 * payment mentions), the credited lines, their VAT breakdown (rounded once per rate, as stored),
 * and the invoice referenced as the preceding invoice (BT-25 number, BT-26 date). Amounts are
 * positive, as a 381 wants them.
 */
export function toCreditNoteDocument(stored: StoredCreditNote, invoice: StoredInvoice): InvoiceDocument {
  const { creditNote: c, lines } = stored;
  const base = toInvoiceDocument(invoice);
  const groups = vatGroups(
    lines.map((l) => ({
      vatCategory: l.vat_category,
      taxRate: new Decimal(l.tax_rate),
      totalHt: new Decimal(l.total_ht),
      totalTax: new Decimal(l.total_tax),
      exemptionReason: l.vat_exemption_reason,
      exemptionCode: l.vat_exemption_reason_code,
    })),
  );
  const categories = new Set<VatCategory>(lines.map((l) => l.vat_category));
  const ttc = new Decimal(c.total_ttc).toFixed(2);
  const ht = new Decimal(c.total_ht).toFixed(2);
  const inv = invoice.invoice;
  return {
    ...base,
    typeCode: '381',
    number: c.credit_note_number,
    issueDate: c.issue_date,
    dueDate: null,
    buyerIsIndividual: c.buyer_is_individual,
    // BT-80 is needed only while an intra-community line (K) is credited (BR-IC-12).
    deliverToCountry: categories.has('K') ? inv.buyer_country : null,
    lines: lines.map(documentLineOf),
    vatBreakdown: groups.map((g) => ({
      category: g.category,
      rate: g.category === 'O' ? null : g.rate.toFixed(2),
      taxableAmount: g.taxableAmount.toFixed(2),
      taxAmount: g.groupTax.toFixed(2),
      exemptionReason: g.exemptionReason,
      exemptionReasonCode: g.exemptionCode,
    })),
    totals: {
      lineTotal: ht,
      taxBasisTotal: ht,
      taxTotal: new Decimal(c.total_tax).toFixed(2),
      grandTotal: ttc,
      prepaidAmount: '0.00',
      duePayable: ttc,
    },
    // BR-CO-25: a positive amount due needs payment terms (or a due date).
    paymentTerms: `Avoir sur la facture ${inv.invoice_number} du ${frenchDate(inv.issue_date)} : ${c.reason}`.slice(
      0,
      1000,
    ),
    precedingInvoice: { number: inv.invoice_number, issueDate: inv.issue_date },
  };
}
