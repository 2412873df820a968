import { Decimal } from '../billing/index.js';
import {
  B2B_PAYMENT_NOTES,
  type DocumentParty,
  groupTaxes,
  type InvoiceDocument,
  type VatCategory,
  vatGroups,
} from '../documents/index.js';
import type { Address } from './invoice.js';
import type { InvoiceLineRow, InvoiceRow, StoredInvoice } from './invoice-row.js';

const frenchDate = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

function partyOf(
  name: string,
  siret: string | null,
  vat: string | null,
  legalId: string | null,
  address: Address,
  withIdentifiers: boolean,
): DocumentParty {
  return {
    name,
    siret: withIdentifiers ? siret : null,
    vatNumber: withIdentifiers ? vat : null,
    legalId: withIdentifiers && !siret ? legalId : null,
    address: {
      line1: address.line1,
      line2: address.line2 ?? null,
      postalCode: address.postal_code,
      city: address.city,
      country: address.country,
    },
    electronicAddress:
      withIdentifiers && siret && address.country === 'FR' ? { scheme: '0225', value: siret.slice(0, 9) } : null,
  };
}

/**
 * The document model of a stored invoice (domain/documents/invoice-document.ts): what every writer
 * prints. The VAT breakdown follows the invoice's own convention (VAT per rate or per line, as its
 * `total_tax` says); an individual buyer gets neither identifiers nor the B2B payment mentions.
 */
export function toInvoiceDocument({ invoice, lines }: StoredInvoice): InvoiceDocument {
  const taxed = lines.map((l) => ({
    vatCategory: l.vat_category,
    taxRate: new Decimal(l.tax_rate),
    totalHt: new Decimal(l.total_ht),
    totalTax: new Decimal(l.total_tax),
    exemptionReason: l.vat_exemption_reason,
    exemptionCode: l.vat_exemption_reason_code,
  }));
  const groups = vatGroups(taxed);
  const taxes = groupTaxes(groups, new Decimal(invoice.total_tax));
  const categories = new Set<VatCategory>(lines.map((l) => l.vat_category));
  const onlyO = categories.size === 1 && categories.has('O');
  const individual = invoice.buyer_is_individual;
  const intraCommunity = categories.has('K');
  const ttc = new Decimal(invoice.total_ttc).toFixed(2);
  return {
    typeCode: invoice.type_code ?? '380',
    number: invoice.invoice_number,
    issueDate: invoice.issue_date,
    dueDate: invoice.due_date,
    currency: invoice.currency,
    buyerReference: invoice.external_id,
    seller: partyOf(
      invoice.seller_name,
      invoice.seller_siret,
      onlyO ? null : invoice.seller_vat_number,
      null,
      invoice.seller_address,
      true,
    ),
    buyer: partyOf(
      invoice.buyer_name,
      invoice.buyer_siret,
      onlyO ? null : invoice.buyer_vat_number,
      invoice.buyer_legal_id,
      invoice.buyer_address,
      !individual,
    ),
    buyerIsIndividual: individual,
    // BT-72: the sale or service is dated by the invoice (French practice), and K requires it (BR-IC-11).
    deliveryDate: invoice.issue_date,
    deliverToCountry: intraCommunity ? invoice.buyer_country : null,
    lines: lines.map(documentLineOf),
    vatBreakdown: groups.map((g, i) => ({
      category: g.category,
      rate: g.category === 'O' ? null : g.rate.toFixed(2),
      taxableAmount: g.taxableAmount.toFixed(2),
      taxAmount: taxes[i].toFixed(2),
      exemptionReason: g.exemptionReason,
      exemptionReasonCode: g.exemptionCode,
    })),
    totals: {
      lineTotal: new Decimal(invoice.total_ht).toFixed(2),
      taxBasisTotal: new Decimal(invoice.total_ht).toFixed(2),
      taxTotal: new Decimal(invoice.total_tax).toFixed(2),
      grandTotal: ttc,
      prepaidAmount: '0.00',
      duePayable: ttc,
    },
    paymentTerms: invoice.due_date
      ? `Paiement au plus tard le ${frenchDate(invoice.due_date)}.`
      : 'Paiement à réception de la facture.',
    notes: [...precedingNote(invoice), ...(individual ? [] : B2B_PAYMENT_NOTES)],
    precedingInvoice: null,
    ...((invoice.preceding_invoices ?? []).length > 0
      ? {
          precedingInvoices: invoice.preceding_invoices.map((p) => ({ number: p.number, issueDate: p.issue_date })),
        }
      : {}),
  };
}

/**
 * A balance invoice's deposits, named in a note (BT-22, subject AAI) when there are several: the CII
 * carries only the first in BT-25.
 */
function precedingNote(invoice: InvoiceRow): { subjectCode: string; text: string }[] {
  const preceding = invoice.preceding_invoices ?? [];
  if (preceding.length < 2) return [];
  const list = preceding.map((p) => `${p.number} du ${frenchDate(p.issue_date)}`).join(', ');
  return [{ subjectCode: 'AAI', text: `Factures d'acompte déduites : ${list}.` }];
}

/** A stored line (an invoice's or a credit note's: the same columns) as a document line. */
export function documentLineOf(
  line: Pick<
    InvoiceLineRow,
    'line_number' | 'description' | 'quantity' | 'unit_code' | 'unit_price' | 'total_ht' | 'vat_category' | 'tax_rate'
  >,
) {
  return {
    lineNumber: line.line_number,
    description: line.description,
    quantity: new Decimal(line.quantity).toFixed(),
    unitCode: line.unit_code,
    unitPrice: new Decimal(line.unit_price).toFixed(),
    netAmount: new Decimal(line.total_ht).toFixed(2),
    vatCategory: line.vat_category,
    vatRate: line.vat_category === 'O' ? null : new Decimal(line.tax_rate).toFixed(2),
  };
}

export type { InvoiceRow };
