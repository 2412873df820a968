import { Decimal } from '../billing/index.js';
import {
  B2B_PAYMENT_NOTES,
  type DocumentParty,
  groupTaxes,
  type InvoiceDocument,
  renderInvoicePdf,
  vatGroups,
} from '../documents/index.js';
import type { PreparedInvoice } from '../invoicing/index.js';
import { prepareQuote } from './quote-body.js';
import type { QuoteRow } from './quote-row.js';

const frenchDate = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

function partyOf(
  name: string,
  siret: string | null,
  vat: string | null,
  address: PreparedInvoice['sellerAddress'],
  withIds: boolean,
): DocumentParty {
  return {
    name,
    siret: withIds ? siret : null,
    vatNumber: withIds ? vat : null,
    legalId: null,
    address: {
      line1: address.line1,
      line2: address.line2,
      postalCode: address.postal_code,
      city: address.city,
      country: address.country,
    },
    electronicAddress: null,
  };
}

/** The quote's readable PDF: the invoice layout titled DEVIS, with its validity and terms. */
export function renderQuotePdf(quote: QuoteRow): Buffer {
  const p = prepareQuote(quote.content);
  const groups = vatGroups(p.lines);
  const taxes = groupTaxes(groups, p.totalTax);
  const notes = [
    { subjectCode: null, text: `Devis valable jusqu'au ${frenchDate(quote.validity_date)}.` },
    ...(quote.content.notes ? [{ subjectCode: null, text: quote.content.notes }] : []),
    ...(quote.content.purchase_order_ref
      ? [{ subjectCode: null, text: `Bon de commande : ${quote.content.purchase_order_ref}` }]
      : []),
    ...(p.buyerIsIndividual ? [] : B2B_PAYMENT_NOTES),
  ];
  const doc: InvoiceDocument = {
    title: 'DEVIS',
    typeCode: '380',
    number: quote.quote_number,
    issueDate: quote.issue_date,
    dueDate: null,
    currency: quote.currency,
    buyerReference: null,
    seller: partyOf(p.sellerName, p.sellerSiret, p.sellerVatNumber, p.sellerAddress, true),
    buyer: partyOf(p.buyerName, p.buyerSiret, p.buyerVatNumber, p.buyerAddress, !p.buyerIsIndividual),
    buyerIsIndividual: p.buyerIsIndividual,
    deliveryDate: null,
    deliverToCountry: null,
    lines: p.lines.map((l) => ({
      lineNumber: l.lineNumber,
      description: l.description,
      quantity: l.quantity.toFixed(),
      unitCode: l.unitCode,
      unitPrice: l.unitPrice.toFixed(),
      netAmount: l.totalHt.toFixed(2),
      vatCategory: l.vatCategory,
      vatRate: l.vatCategory === 'O' ? null : l.taxRate.toFixed(2),
    })),
    vatBreakdown: groups.map((g, i) => ({
      category: g.category,
      rate: g.category === 'O' ? null : g.rate.toFixed(2),
      taxableAmount: g.taxableAmount.toFixed(2),
      taxAmount: taxes[i].toFixed(2),
      exemptionReason: g.exemptionReason,
      exemptionReasonCode: g.exemptionCode,
    })),
    totals: {
      lineTotal: p.totalHt.toFixed(2),
      taxBasisTotal: p.totalHt.toFixed(2),
      taxTotal: p.totalTax.toFixed(2),
      grandTotal: p.totalTtc.toFixed(2),
      prepaidAmount: '0.00',
      duePayable: new Decimal(p.totalTtc).toFixed(2),
    },
    paymentTerms: quote.content.payment_terms ?? null,
    notes,
    precedingInvoice: null,
  };
  return renderInvoicePdf(doc);
}
