import { moneyToJson } from '../billing/index.js';
import type { StoredCreditNote } from './credit-note-row.js';

/** The credit note as the API shows it (schema `CreditNote`). */
export function toCreditNoteView({ creditNote: c, lines, invoiceNumber }: StoredCreditNote) {
  return {
    id: c.id,
    credit_note_number: c.credit_note_number,
    invoice_id: c.invoice_id,
    invoice_number: invoiceNumber,
    type: c.type,
    status: c.status,
    reason: c.reason,
    issue_date: c.issue_date,
    currency: c.currency,
    total_ht: moneyToJson(c.total_ht),
    total_tax: moneyToJson(c.total_tax),
    total_ttc: moneyToJson(c.total_ttc),
    buyer_is_individual: c.buyer_is_individual,
    items: lines.map((l) => ({
      line_number: l.line_number,
      invoice_line_number: l.invoice_line_number,
      description: l.description,
      quantity: Number(l.quantity),
      unit_price: Number(l.unit_price),
      tax_rate: Number(l.tax_rate),
      vat_category: l.vat_category,
      total_ht: moneyToJson(l.total_ht),
      total_tax: moneyToJson(l.total_tax),
      total_ttc: moneyToJson(l.total_ttc),
    })),
    environment: c.environment,
    sub_tenant_id: c.sub_tenant_id,
    amount_charged: moneyToJson(c.amount_charged),
    documents_status: c.documents_status,
    sent_at: c.sent_at ? c.sent_at.toISOString() : null,
    deleted_at: c.deleted_at ? c.deleted_at.toISOString() : null,
    created_at: c.created_at.toISOString(),
    updated_at: c.updated_at.toISOString(),
  };
}
export type CreditNoteView = ReturnType<typeof toCreditNoteView>;
