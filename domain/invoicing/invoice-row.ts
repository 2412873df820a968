import type { InvoiceStatus } from '../../schemas/invoices.js';
import type { CiiProfile, OutputFormat, VatCategory } from '../documents/index.js';
import type { Environment } from '../shared/caller.js';
import type { Address, InvoiceTypeCode, PrecedingInvoice } from './invoice.js';

/** An `invoices` row as stored (migrations/20261122001800_create_invoices.ts). Numerics are strings. */
export interface InvoiceRow {
  id: string;
  tenant_id: string;
  sub_tenant_id: string | null;
  environment: Environment;
  company_id: string | null;
  external_id: string | null;
  invoice_number: string;
  direction: 'outgoing' | 'incoming';
  output_format: OutputFormat;
  profile: CiiProfile;
  status: InvoiceStatus;
  status_message: string | null;
  issue_date: string;
  due_date: string | null;
  currency: string;
  total_ht: string;
  total_tax: string;
  total_ttc: string;
  seller_siret: string;
  seller_name: string;
  seller_vat_number: string | null;
  seller_country: string;
  seller_address: Address;
  buyer_siret: string | null;
  buyer_name: string;
  buyer_country: string;
  buyer_vat_number: string | null;
  buyer_legal_id: string | null;
  buyer_address: Address;
  buyer_is_individual: boolean;
  archive_enabled: boolean;
  metadata: Record<string, unknown>;
  /** BT-3 and BG-3 (migrations/20261127080000_create_quotes.ts): 386 for a quote's deposit invoice. */
  type_code: InvoiceTypeCode;
  preceding_invoices: PrecedingInvoice[];
  amount_charged: string;
  fiscal_entry_id: string | null;
  documents_status: 'pending' | 'ready' | 'failed';
  documents_error: string | null;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
  /** Transmission (migrations/20261122004510_add_invoice_transmission.ts). */
  pdp_id: string | null;
  provider_connection_id: string | null;
  submitted_at: Date | null;
  transmission_attempts: number;
  payment_sent_at: Date | null;
  paid_at: Date | null;
  payment_id: string | null;
  /** `{code, label, reason, at}` in the order the provider logged them. */
  lifecycle_events: { code: string; label: string; reason: string | null; at: string }[];
}

/** An `invoice_lines` row as stored. */
export interface InvoiceLineRow {
  invoice_id: string;
  line_number: number;
  description: string;
  quantity: string;
  unit_price: string;
  tax_rate: string;
  vat_category: VatCategory;
  vat_exemption_reason: string | null;
  vat_exemption_reason_code: string | null;
  unit_code: string;
  total_ht: string;
  total_tax: string;
  total_ttc: string;
}

/** An invoice with its lines, in line order. */
export interface StoredInvoice {
  invoice: InvoiceRow;
  lines: InvoiceLineRow[];
}
