/** Counts and amounts (two decimals, as strings: money never passes through a float) of one currency. */
export interface Amounts {
  invoices_count: number;
  invoices_ht: string;
  invoices_tax: string;
  invoices_ttc: string;
  credit_notes_count: number;
  credit_notes_ht: string;
  credit_notes_tax: string;
  credit_notes_ttc: string;
  /** Invoices less credit notes. */
  net_ht: string;
  net_tax: string;
  net_ttc: string;
  payments_count: number;
  payments_amount: string;
}

/** Totals in euros, the fiscal currency; entries in another currency are totalled apart, never converted. */
export type ClosingTotals = Amounts & { currency: 'EUR'; other_currencies: Record<string, Amounts> };
