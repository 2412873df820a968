import { B2B_PAYMENT_NOTES, type DocumentLine, type DocumentNote, type InvoiceDocument } from '../documents/index.js';
import type { BillingInvoiceRow } from './billing-invoice-store.js';
import { frenchMonth, lastDay } from './billing-period.js';
import { VOLUME_DISCOUNT_TIERS } from './billing-totals.js';
import { Decimal } from './money.js';

const money = (value: string | Decimal) => new Decimal(value).toFixed(2);
const frenchDecimal = (value: Decimal) => value.toFixed().replace('.', ',');

/**
 * The document model (domain/documents/invoice-document.ts) of a billing invoice: a commercial
 * invoice (380) from the operator to the tenant with one line per kind used in the month. The
 * volume discount is in the electronic invoices' net price (BT-146), its amount said in the line's
 * name and in a note; VAT is 20 % (category S) on the total. The balance prepaid it: BT-113 is what
 * the month's movements took from it, BT-115 what remains due (docs/decisions/0054).
 */
export function toBillingDocument(row: BillingInvoiceRow): InvoiceDocument {
  const month = frenchMonth(row.period);
  const lines: DocumentLine[] = [];
  const line = (description: string, quantity: number, unitPrice: Decimal, netAmount: string) =>
    lines.push({
      lineNumber: lines.length + 1,
      description,
      quantity: String(quantity),
      unitCode: 'C62',
      unitPrice: unitPrice.toFixed(),
      netAmount,
      vatCategory: 'S',
      vatRate: new Decimal(row.vat_rate).toFixed(2),
    });
  const discountRate = new Decimal(row.discount_rate);
  if (row.invoices_count > 0) {
    const unitPrice = new Decimal(row.invoices_amount).dividedBy(row.invoices_count);
    const netPrice = unitPrice.times(new Decimal(100).minus(discountRate)).dividedBy(100);
    const net = new Decimal(row.invoices_amount).minus(row.discount_amount);
    const description = discountRate.isZero()
      ? `Factures électroniques émises, ${month}`
      : `Factures électroniques émises, ${month} (remise volume ${frenchDecimal(discountRate)} % : ${money(row.discount_amount).replace('.', ',')} EUR)`;
    line(description, row.invoices_count, netPrice, money(net));
  }
  if (row.signatures_count > 0) {
    const unitPrice = new Decimal(row.signatures_amount).dividedBy(row.signatures_count);
    line(`Signatures électroniques (EU-SES), ${month}`, row.signatures_count, unitPrice, money(row.signatures_amount));
  }
  if (row.credit_notes_count > 0) {
    const unitPrice = new Decimal(row.credit_notes_amount).dividedBy(row.credit_notes_count);
    line(`Avoirs émis, ${month}`, row.credit_notes_count, unitPrice, money(row.credit_notes_amount));
  }
  const notes: DocumentNote[] = [
    {
      subjectCode: 'AAI',
      text: `Facturation mensuelle, ${month} (période du ${frenchDate(`${row.period}-01`)} au ${frenchDate(lastDay(row.period))}), prépayée par le solde du compte : ${money(row.prepaid_amount).replace('.', ',')} EUR prélevés sur le solde, ${money(row.amount_due).replace('.', ',')} EUR restant dus.`,
    },
  ];
  if (!discountRate.isZero()) {
    notes.push({
      subjectCode: 'AAI',
      text: `Remise volume de ${frenchDecimal(discountRate)} % sur les ${row.invoices_count} factures électroniques du mois (plus de ${thresholdOf(discountRate)} factures) : ${money(row.discount_amount).replace('.', ',')} EUR, recréditée sur le solde.`,
    });
  }
  notes.push(...B2B_PAYMENT_NOTES);
  return {
    typeCode: '380',
    number: row.number,
    issueDate: row.issue_date,
    dueDate: null,
    currency: row.currency,
    buyerReference: null,
    seller: row.seller,
    buyer: row.buyer,
    buyerIsIndividual: false,
    deliveryDate: null,
    deliverToCountry: null,
    lines,
    vatBreakdown: [
      {
        category: 'S',
        rate: new Decimal(row.vat_rate).toFixed(2),
        taxableAmount: money(row.total_ht),
        taxAmount: money(row.total_vat),
        exemptionReason: null,
        exemptionReasonCode: null,
      },
    ],
    totals: {
      lineTotal: money(row.total_ht),
      taxBasisTotal: money(row.total_ht),
      taxTotal: money(row.total_vat),
      grandTotal: money(row.total_ttc),
      prepaidAmount: money(row.prepaid_amount),
      duePayable: money(row.amount_due),
    },
    paymentTerms: new Decimal(row.amount_due).isZero()
      ? 'Facture acquittée : prépayée par le solde du compte.'
      : 'Paiement à réception de la facture.',
    notes,
    precedingInvoice: null,
  };
}

const frenchDate = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

const thresholdOf = (rate: Decimal) =>
  new Intl.NumberFormat('fr-FR').format(VOLUME_DISCOUNT_TIERS.find((tier) => rate.equals(tier.rate))?.above ?? 0);
