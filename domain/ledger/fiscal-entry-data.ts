/**
 * What each kind of ledger entry records in its `data` (the hashed field list, hash_version 1), and
 * so what the FEC (fec-postings.ts) and the rules replay read back. Values are flat: strings,
 * integers, booleans or null, amounts as strings with two decimals ("1250.00"), dates YYYY-MM-DD.
 * Credit-note creation and payment recording write these fields too, so every entry kind reads alike.
 */

/** `invoice_created`, written by domain/invoicing/issue-invoice.ts. */
export interface InvoiceCreatedData {
  invoice_id: string;
  invoice_number: string;
  /** outgoing: a sale (journal VT); incoming: a purchase (journal AC). */
  direction: 'outgoing' | 'incoming';
  issue_date: string;
  currency: string;
  total_ht: string;
  total_tax: string;
  total_ttc: string;
  seller_siret: string;
  buyer_siret: string | null;
  buyer_name: string;
  recorded_at: string;
}

/**
 * `credit_note_issued` (entity_type `credit_note`): a credit note against an invoice, posted as
 * the reverse of an invoice. Amounts are the positive amounts credited.
 */
export interface CreditNoteIssuedData {
  credit_note_id: string;
  credit_note_number: string;
  /** The invoice credited. */
  invoice_id: string;
  invoice_number: string;
  /** The credited invoice's direction: outgoing reverses a sale, incoming a purchase. */
  direction: 'outgoing' | 'incoming';
  issue_date: string;
  currency: string;
  total_ht: string;
  total_tax: string;
  total_ttc: string;
  /**
   * Optional VAT per rate, as the RFC 8785 JSON text of `[{rate, taxable_amount, tax_amount}]`
   * (strings, "20.00"), so that the FEC posts one VAT line per rate; one line of total_tax without it.
   */
  vat_breakdown?: string | null;
  seller_siret: string;
  seller_name: string;
  buyer_siret: string | null;
  buyer_name: string;
  recorded_at: string;
}

/** `payment` (entity_type `payment`): money received for an outgoing invoice, or paid for an incoming one. */
export interface PaymentData {
  payment_id: string;
  /** The bank's or the provider's reference of the payment. */
  payment_reference: string;
  invoice_id: string;
  invoice_number: string;
  /** outgoing: received from the customer (512 / 411); incoming: paid to the supplier (401 / 512). */
  direction: 'outgoing' | 'incoming';
  payment_date: string;
  currency: string;
  /** The amount paid, positive. */
  amount: string;
  seller_siret: string;
  seller_name: string;
  buyer_siret: string | null;
  buyer_name: string;
  recorded_at: string;
}

export type Row = Record<string, unknown>;

const AMOUNT = /^-?\d{1,15}\.\d{2}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Reads one field of an entry's data, or says which field is missing or malformed. */
export class EntryDataReader {
  readonly problems: string[] = [];
  constructor(private readonly data: Row) {}

  text(field: string): string {
    const value = this.data[field];
    if (typeof value === 'string' && value.trim() !== '') return value;
    this.problems.push(`${field} is missing`);
    return '';
  }

  optionalText(field: string): string | null {
    const value = this.data[field];
    return typeof value === 'string' && value.trim() !== '' ? value : null;
  }

  amount(field: string): string {
    const value = this.data[field];
    if (typeof value === 'string' && AMOUNT.test(value)) return value;
    this.problems.push(`${field} must be an amount with two decimals`);
    return '0.00';
  }

  date(field: string): string {
    const value = this.data[field];
    if (typeof value === 'string' && DATE.test(value)) return value;
    this.problems.push(`${field} must be a date (YYYY-MM-DD)`);
    return '';
  }

  direction(): 'outgoing' | 'incoming' {
    const value = this.data.direction ?? 'outgoing';
    if (value === 'outgoing' || value === 'incoming') return value;
    this.problems.push('direction must be outgoing or incoming');
    return 'outgoing';
  }
}

/** A credit note's optional VAT breakdown; null when absent or not readable (the FEC then posts one line). */
export function parseVatBreakdown(text: string | null): { rate: string; taxable: string; tax: string }[] | null {
  if (!text) return null;
  try {
    const parsed = JSON.parse(text) as unknown;
    if (!Array.isArray(parsed) || parsed.length === 0) return null;
    const groups = parsed.map((g: Row) => ({
      rate: String(g.rate),
      taxable: String(g.taxable_amount),
      tax: String(g.tax_amount),
    }));
    return groups.every((g) => AMOUNT.test(g.taxable) && AMOUNT.test(g.tax) && /^\d{1,3}(\.\d{1,2})?$/.test(g.rate))
      ? groups
      : null;
  } catch {
    return null;
  }
}
