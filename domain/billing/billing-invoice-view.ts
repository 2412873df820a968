import type { BillingInvoice } from '../../schemas/billing-invoices.js';
import type { DocumentParty } from '../documents/index.js';
import type { BillingInvoiceRow } from './billing-invoice-store.js';
import { Decimal, moneyToJson } from './money.js';

/** Schema `BillingInvoice`: the type comes from the schema. */
export type BillingInvoiceView = BillingInvoice;

const partyView = (party: DocumentParty): BillingInvoice['seller'] => ({
  name: party.name,
  siret: party.siret,
  siren: party.siret?.slice(0, 9) ?? party.legalId,
  vat_number: party.vatNumber,
  address: {
    line1: party.address.line1,
    postal_code: party.address.postalCode,
    city: party.address.city,
    country: party.address.country,
  },
});

const kind = (count: number, amount: string) => ({
  count,
  unit_price: count ? new Decimal(amount).dividedBy(count).toNumber() : 0,
  amount: moneyToJson(amount),
});

export function toBillingInvoiceView(row: BillingInvoiceRow): BillingInvoiceView {
  return {
    id: row.id,
    number: row.number,
    month: row.period,
    issue_date: row.issue_date,
    currency: row.currency,
    invoices: kind(row.invoices_count, row.invoices_amount),
    signatures: kind(row.signatures_count, row.signatures_amount),
    credit_notes: kind(row.credit_notes_count, row.credit_notes_amount),
    gross_amount: moneyToJson(row.gross_amount),
    discount_rate: Number(row.discount_rate),
    discount_amount: moneyToJson(row.discount_amount),
    total_ht: moneyToJson(row.total_ht),
    vat_rate: Number(row.vat_rate),
    total_vat: moneyToJson(row.total_vat),
    total_ttc: moneyToJson(row.total_ttc),
    debited_amount: moneyToJson(row.debited_amount),
    vat_debited: moneyToJson(row.vat_debited),
    prepaid_amount: moneyToJson(row.prepaid_amount),
    amount_due: moneyToJson(row.amount_due),
    status: new Decimal(row.amount_due).isZero() ? 'paid' : 'due',
    seller: partyView(row.seller),
    buyer: partyView(row.buyer),
    documents_status: row.documents_status,
    pdf_sha256: row.pdf_sha256,
    created_at: row.created_at.toISOString(),
  };
}
