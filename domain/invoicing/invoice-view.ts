import type { Invoice } from '../../schemas/invoices.js';
import { moneyToJson } from '../billing/index.js';
import type { InvoiceLineRow, InvoiceRow } from './invoice-row.js';

const num = (value: string) => Number(value);

/** Line as the API shows it. */
export const toInvoiceLineView = (line: InvoiceLineRow) => ({
  line_number: line.line_number,
  description: line.description,
  quantity: num(line.quantity),
  unit_price: num(line.unit_price),
  tax_rate: num(line.tax_rate),
  vat_category: line.vat_category,
  vat_exemption_reason: line.vat_exemption_reason,
  unit_code: line.unit_code,
  total_ht: moneyToJson(line.total_ht),
  total_tax: moneyToJson(line.total_tax),
  total_ttc: moneyToJson(line.total_ttc),
});

const party = (
  siret: string | null,
  name: string,
  vat: string | null,
  country: string,
  address: InvoiceRow['seller_address'],
) => ({
  siret,
  name,
  vat_number: vat,
  country,
  address: {
    line1: address.line1,
    line2: address.line2 ?? null,
    postal_code: address.postal_code,
    city: address.city,
    country: address.country,
  },
});

/**
 * The invoice as the API shows it (schema `Invoice`): seller and buyer both as flat `seller_*`
 * fields and as nested objects, since the specification publishes both renderings.
 */
export function toInvoiceView(invoice: InvoiceRow, lines: readonly InvoiceLineRow[]): InvoiceView {
  const seller = party(
    invoice.seller_siret,
    invoice.seller_name,
    invoice.seller_vat_number,
    invoice.seller_country,
    invoice.seller_address,
  );
  const buyer = party(
    invoice.buyer_siret,
    invoice.buyer_name,
    invoice.buyer_vat_number,
    invoice.buyer_country,
    invoice.buyer_address,
  );
  return {
    id: invoice.id,
    invoice_number: invoice.invoice_number,
    external_id: invoice.external_id,
    direction: invoice.direction,
    output_format: invoice.output_format,
    profile: invoice.profile,
    status: invoice.status,
    status_message: invoice.status_message,
    issue_date: invoice.issue_date,
    due_date: invoice.due_date,
    currency: invoice.currency,
    total_ht: moneyToJson(invoice.total_ht),
    total_tax: moneyToJson(invoice.total_tax),
    total_ttc: moneyToJson(invoice.total_ttc),
    seller_siret: invoice.seller_siret,
    seller_name: invoice.seller_name,
    seller_vat_number: invoice.seller_vat_number,
    seller_country: invoice.seller_country,
    seller_address: seller.address,
    buyer_siret: invoice.buyer_siret,
    buyer_name: invoice.buyer_name,
    buyer_vat_number: invoice.buyer_vat_number,
    buyer_legal_id: invoice.buyer_legal_id,
    buyer_country: invoice.buyer_country,
    buyer_address: buyer.address,
    buyer_is_individual: invoice.buyer_is_individual,
    seller,
    buyer: { ...buyer, legal_id: invoice.buyer_legal_id, is_individual: invoice.buyer_is_individual },
    lines: lines.map(toInvoiceLineView),
    sub_tenant_id: invoice.sub_tenant_id,
    company_id: invoice.company_id,
    environment: invoice.environment,
    amount_charged: moneyToJson(invoice.amount_charged),
    archive_enabled: invoice.archive_enabled,
    metadata: invoice.metadata,
    documents_status: invoice.documents_status,
    pdp_id: invoice.pdp_id ?? null,
    submitted_at: invoice.submitted_at?.toISOString() ?? null,
    payment_sent_at: invoice.payment_sent_at?.toISOString() ?? null,
    paid_at: invoice.paid_at?.toISOString() ?? null,
    lifecycle_events: invoice.lifecycle_events ?? [],
    created_at: invoice.created_at.toISOString(),
    updated_at: invoice.updated_at.toISOString(),
  };
}
/** The schema's type: what the view returns is checked against it. */
export type InvoiceView = Invoice;
