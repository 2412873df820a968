import type { VatCategory } from '../documents/index.js';
import type { Environment } from '../shared/caller.js';

export type CreditNoteStatus = 'draft' | 'sent';
export type CreditNoteType = 'partial' | 'total';

/** A `credit_notes` row as stored (migrations/20261122004200_create_credit_notes.ts). Numerics are strings. */
export interface CreditNoteRow {
  id: string;
  tenant_id: string;
  sub_tenant_id: string | null;
  environment: Environment;
  company_id: string | null;
  invoice_id: string;
  credit_note_number: string;
  type: CreditNoteType;
  status: CreditNoteStatus;
  reason: string;
  issue_date: string;
  currency: string;
  total_ht: string;
  total_tax: string;
  total_ttc: string;
  seller_siret: string;
  buyer_is_individual: boolean;
  amount_charged: string;
  fiscal_entry_id: string;
  documents_status: 'pending' | 'ready' | 'failed';
  documents_error: string | null;
  created_by: Record<string, string | null>;
  created_at: Date;
  updated_at: Date;
  sent_at: Date | null;
  deleted_at: Date | null;
}

/** A `credit_note_lines` row: one credited part of one invoice line, or a free item (`invoice_line_number` null). */
export interface CreditNoteLineRow {
  credit_note_id: string;
  line_number: number;
  invoice_line_number: number | null;
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

/** A credit note with its lines, in line order, and the number of the invoice it credits. */
export interface StoredCreditNote {
  creditNote: CreditNoteRow;
  lines: CreditNoteLineRow[];
  invoiceNumber: string;
}
