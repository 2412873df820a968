import type { CreateQuoteInput } from '../../schemas/quotes.js';
import type { Environment } from '../shared/caller.js';

export type QuoteStatus = 'draft' | 'sent' | 'viewed' | 'accepted' | 'refused' | 'expired' | 'cancelled' | 'converted';

/** A quote's body as given (without the path's sub-tenant): what `quotes.content` holds. */
export type QuoteContent = Omit<CreateQuoteInput, 'subTenantId'>;

/** The buyer's acceptance, as recorded. */
export interface QuoteSignature {
  signer_name: string;
  signer_email: string | null;
  ip: string | null;
  user_agent: string | null;
  signed_at: string;
}

/** A `quotes` row (migrations/20261127080000_create_quotes.ts). Numerics are strings. */
export interface QuoteRow {
  id: string;
  tenant_id: string;
  sub_tenant_id: string;
  environment: Environment;
  quote_number: string;
  status: QuoteStatus;
  status_reason: string | null;
  issue_date: string;
  validity_date: string;
  currency: string;
  buyer_name: string;
  content: QuoteContent;
  total_ht: string;
  total_tax: string;
  total_ttc: string;
  signature: QuoteSignature | null;
  public_token_hash: string | null;
  public_token_sealed: string | null;
  public_link_expires_at: Date | null;
  public_link_revoked_at: Date | null;
  duplicated_from: string | null;
  created_by: Record<string, string | null>;
  created_at: Date;
  updated_at: Date;
  sent_at: Date | null;
  viewed_at: Date | null;
  answered_at: Date | null;
  cancelled_at: Date | null;
  converted_at: Date | null;
}

/** A `quote_invoices` row: an invoice a quote was converted into. */
export interface QuoteInvoiceRow {
  id: string;
  tenant_id: string;
  quote_id: string;
  invoice_id: string;
  kind: 'deposit' | 'balance';
  total_ht: string;
  total_ttc: string;
  /** The amount excluding VAT this invoice took at each VAT rate of the quote. */
  vat_split: { key: string; total_ht: string }[];
  created_at: Date;
}
