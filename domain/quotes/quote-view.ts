import type { Quote } from '../../schemas/quotes.js';
import { Decimal, moneyToJson } from '../billing/index.js';
import type { PreparedInvoice, PreparedLine } from '../invoicing/index.js';
import type { Config } from '../shared/config.js';
import { prepareQuote } from './quote-body.js';
import { publicUrlOf } from './quote-link.js';
import type { QuoteInvoiceRow, QuoteRow } from './quote-row.js';
import type { StoredQuote } from './quote-store.js';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export const quoteLineView = (l: PreparedLine) => ({
  line_number: l.lineNumber,
  description: l.description,
  quantity: Number(l.quantity.toFixed()),
  unit_price: Number(l.unitPrice.toFixed()),
  tax_rate: Number(l.taxRate.toFixed(2)),
  vat_category: l.vatCategory,
  unit_code: l.unitCode,
  total_ht: moneyToJson(l.totalHt),
  total_tax: moneyToJson(l.totalTax),
  total_ttc: moneyToJson(l.totalTtc),
});

const address = (a: PreparedInvoice['sellerAddress']) => ({
  line1: a.line1,
  line2: a.line2,
  postal_code: a.postal_code,
  city: a.city,
  country: a.country,
});

/** The deposits invoiced so far, excluding VAT. */
export const depositsHt = (invoices: readonly QuoteInvoiceRow[]): Decimal =>
  invoices.filter((i) => i.kind === 'deposit').reduce((s, i) => s.plus(i.total_ht), new Decimal(0));

/** The quote as the API shows it (schema `Quote`). Its stored body passed every rule when it was written. */
export function toQuoteView(config: Config, { quote: q, invoices }: StoredQuote, now: Date): Quote {
  const p = prepareQuote(q.content);
  const invoicedHt = invoices.reduce((s, i) => s.plus(i.total_ht), new Decimal(0));
  const publicUrl = publicUrlOf(config, q, now);
  return {
    id: q.id,
    quote_number: q.quote_number,
    status: q.status,
    status_reason: q.status_reason,
    sub_tenant_id: q.sub_tenant_id,
    environment: q.environment,
    issue_date: q.issue_date,
    validity_date: q.validity_date,
    currency: q.currency,
    seller: {
      siret: p.sellerSiret,
      name: p.sellerName,
      vat_number: p.sellerVatNumber,
      country: p.sellerCountry,
      address: address(p.sellerAddress),
    },
    buyer: {
      siret: p.buyerSiret,
      name: p.buyerName,
      vat_number: p.buyerVatNumber,
      country: p.buyerCountry,
      address: address(p.buyerAddress),
    },
    buyer_email: q.content.buyer_email ?? null,
    lines: p.lines.map(quoteLineView),
    notes: q.content.notes ?? null,
    purchase_order_ref: q.content.purchase_order_ref ?? null,
    payment_terms: q.content.payment_terms ?? null,
    signature_required: q.content.signature_required ?? false,
    callback_url: q.content.callback_url ?? null,
    total_ht: moneyToJson(q.total_ht),
    total_tax: moneyToJson(q.total_tax),
    total_ttc: moneyToJson(q.total_ttc),
    signature: q.signature,
    public_url: publicUrl,
    public_link_expires_at: publicUrl ? iso(q.public_link_expires_at) : null,
    invoice_ids: invoices.map((i) => i.invoice_id),
    deposits_total_ht: moneyToJson(depositsHt(invoices)),
    remaining_ht: moneyToJson(new Decimal(q.total_ht).minus(invoicedHt)),
    duplicated_from: q.duplicated_from,
    created_at: new Date(q.created_at).toISOString(),
    updated_at: new Date(q.updated_at).toISOString(),
    sent_at: iso(q.sent_at),
    viewed_at: iso(q.viewed_at),
    answered_at: iso(q.answered_at),
    cancelled_at: iso(q.cancelled_at),
    converted_at: iso(q.converted_at),
  };
}

/** The status as the buyer sees it: `expired` once past its validity date, even before the job runs. */
export function effectiveStatus(q: QuoteRow, today: string): QuoteRow['status'] {
  return ['sent', 'viewed'].includes(q.status) && q.validity_date < today ? 'expired' : q.status;
}
