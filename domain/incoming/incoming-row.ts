import type { Environment } from '../shared/caller.js';
import type { IncomingStatus } from './incoming-codes.js';

/** A row of `incoming_invoices` without its file content (read separately, only when needed). */
export interface IncomingInvoiceRow {
  id: string;
  tenant_id: string;
  sub_tenant_id: string | null;
  environment: Environment;
  source: 'provider' | 'manual';
  provider_account_id: string | null;
  pdp_id: string | null;
  status: IncomingStatus;
  format: 'ubl' | 'cii' | 'facturx' | null;
  parse_error: string | null;
  type_code: string | null;
  invoice_number: string | null;
  issue_date: string | null;
  due_date: string | null;
  currency: string | null;
  seller_name: string | null;
  seller_siret: string | null;
  seller_vat_number: string | null;
  seller_country: string | null;
  buyer_name: string | null;
  buyer_siret: string | null;
  buyer_vat_number: string | null;
  buyer_country: string | null;
  total_ht: string | null;
  total_tax: string | null;
  total_ttc: string | null;
  amount_due: string | null;
  lines: StoredLine[];
  filename: string;
  content_type: string;
  byte_size: number;
  content_sha256: string;
  reason_code: string | null;
  reason_text: string | null;
  payment_reference: string | null;
  payment_means_code: string | null;
  paid_at: string | Date | null;
  decided_at: Date | null;
  received_at: Date;
  created_at: Date;
  updated_at: Date;
}

/** A line as stored in `lines` (jsonb): the file's values as decimal strings. */
export interface StoredLine {
  line_number: string;
  description: string | null;
  quantity: string | null;
  unit_code: string | null;
  unit_price: string | null;
  total_ht: string | null;
  vat_category: string | null;
  vat_rate: string | null;
}

export interface IncomingEventRow {
  id: string;
  incoming_invoice_id: string;
  status: IncomingStatus;
  status_code: string | null;
  reason_code: string | null;
  reason_text: string | null;
  created_at: Date;
  /** From `incoming_status_sends`: null when nothing is to be sent. */
  send_event_id: string | null;
  sent_at: Date | null;
}

/** Every column but the file's bytes. */
export const ROW_COLUMNS = [
  'id',
  'tenant_id',
  'sub_tenant_id',
  'environment',
  'source',
  'provider_account_id',
  'pdp_id',
  'status',
  'format',
  'parse_error',
  'type_code',
  'invoice_number',
  'issue_date',
  'due_date',
  'currency',
  'seller_name',
  'seller_siret',
  'seller_vat_number',
  'seller_country',
  'buyer_name',
  'buyer_siret',
  'buyer_vat_number',
  'buyer_country',
  'total_ht',
  'total_tax',
  'total_ttc',
  'amount_due',
  'lines',
  'filename',
  'content_type',
  'byte_size',
  'content_sha256',
  'reason_code',
  'reason_text',
  'payment_reference',
  'payment_means_code',
  'paid_at',
  'decided_at',
  'received_at',
  'created_at',
  'updated_at',
].map((column) => `incoming_invoices.${column}`);
