import type { IncomingInvoice } from '../../schemas/incoming-invoices.js';
import type { IncomingEventRow, IncomingInvoiceRow } from './incoming-row.js';

const amount = (value: string | null): number | null => (value === null ? null : Number(value));
const day = (value: string | Date | null): string | null =>
  value === null ? null : typeof value === 'string' ? value.slice(0, 10) : value.toISOString().slice(0, 10);

/** The API's view of an incoming invoice (schemas/incoming-invoices.ts `IncomingInvoice`). */
export function toIncomingView(row: IncomingInvoiceRow, events: readonly IncomingEventRow[]): IncomingInvoiceView {
  return {
    id: row.id,
    sub_tenant_id: row.sub_tenant_id,
    environment: row.environment,
    source: row.source,
    pdp_id: row.pdp_id,
    status: row.status,
    format: row.format,
    parse_error: row.parse_error,
    invoice_number: row.invoice_number,
    type_code: row.type_code,
    issue_date: day(row.issue_date),
    due_date: day(row.due_date),
    currency: row.currency,
    seller: {
      name: row.seller_name,
      siret: row.seller_siret,
      vat_number: row.seller_vat_number,
      country: row.seller_country,
    },
    buyer: {
      name: row.buyer_name,
      siret: row.buyer_siret,
      vat_number: row.buyer_vat_number,
      country: row.buyer_country,
    },
    total_ht: amount(row.total_ht),
    total_tax: amount(row.total_tax),
    total_ttc: amount(row.total_ttc),
    amount_due: amount(row.amount_due),
    lines: row.lines.map((line) => ({
      line_number: line.line_number,
      description: line.description,
      quantity: amount(line.quantity),
      unit_code: line.unit_code,
      unit_price: amount(line.unit_price),
      total_ht: amount(line.total_ht),
      vat_category: line.vat_category,
      vat_rate: amount(line.vat_rate),
    })),
    file: {
      filename: row.filename,
      content_type: row.content_type,
      byte_size: row.byte_size,
      sha256: row.content_sha256,
    },
    reason_code: row.reason_code,
    reason: row.reason_text,
    payment_reference: row.payment_reference,
    payment_means_code: row.payment_means_code,
    paid_at: day(row.paid_at),
    decided_at: row.decided_at?.toISOString() ?? null,
    events: events.map((event) => ({
      status: event.status,
      status_code: event.status_code,
      reason_code: event.reason_code,
      reason: event.reason_text,
      provider_status: event.send_event_id === null ? 'not_applicable' : event.sent_at ? 'sent' : 'pending',
      created_at: event.created_at.toISOString(),
    })),
    received_at: row.received_at.toISOString(),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The schema's type: what the view returns is checked against it. */
export type IncomingInvoiceView = IncomingInvoice;
