import type { Knex } from 'knex';
import { Decimal } from '../billing/index.js';
import type { VatCategory } from '../documents/index.js';
import type { InvoiceLineRow, InvoiceRow } from '../invoicing/index.js';

/**
 * What is left to credit on one invoice line. Two measures are capped, both per line: the
 * quantity (units credited, never more than invoiced) and the amount excluding VAT (never more
 * than the line's `total_ht`, so a price reduction that credits part of the price also counts).
 * Only items bound to the line count here; free items count at their rate (RateBalance).
 */
export interface LineBalance {
  line: InvoiceLineRow;
  originalQuantity: Decimal;
  creditedQuantity: Decimal;
  remainingQuantity: Decimal;
  originalHt: Decimal;
  creditedHt: Decimal;
  remainingHt: Decimal;
}

/**
 * What is left to credit at one VAT rate of the invoice (one category and rate, as the VAT
 * breakdown groups them): the invoice lines' amounts at that rate, less every item credited at it,
 * bound to a line or free. A free item takes its category and exemption reason from here.
 */
export interface RateBalance {
  category: VatCategory;
  rate: Decimal;
  exemptionReason: string | null;
  exemptionCode: string | null;
  originalHt: Decimal;
  creditedHt: Decimal;
  /** Credited by free items (a discount, a goodwill gesture), a part of creditedHt. */
  freeCreditedHt: Decimal;
  remainingHt: Decimal;
}

/** The invoice's remaining-creditable figures: per line, per rate, and in total. */
export interface InvoiceBalance {
  invoice: InvoiceRow;
  lines: LineBalance[];
  rates: RateBalance[];
  totalHt: Decimal;
  creditedHt: Decimal;
  remainingHt: Decimal;
}

/** One sum of credited items: per invoice line (null for free items), category and rate. */
export interface CreditedSum {
  invoiceLineNumber: number | null;
  category: VatCategory;
  rate: Decimal;
  quantity: Decimal;
  ht: Decimal;
}

export const rateKey = (category: string, rate: Decimal.Value): string => `${category}:${new Decimal(rate).toFixed(2)}`;

/**
 * Quantities and amounts already credited by the invoice's credit notes that were not deleted (a
 * deleted draft gives its amount back), per invoice line (null: free items), category and rate.
 * The caller holds the invoice row's lock when it is about to credit more, so no other credit
 * note of this invoice commits meanwhile.
 */
export async function creditedSums(tx: Knex, tenantId: string, invoiceId: string): Promise<CreditedSum[]> {
  const rows = await tx('credit_note_lines as l')
    .join('credit_notes as c', 'c.id', 'l.credit_note_id')
    .where({ 'c.tenant_id': tenantId, 'c.invoice_id': invoiceId })
    .whereNull('c.deleted_at')
    .groupBy('l.invoice_line_number', 'l.vat_category', 'l.tax_rate')
    .select<
      {
        invoice_line_number: number | null;
        vat_category: VatCategory;
        tax_rate: string;
        quantity: string;
        ht: string;
      }[]
    >(
      'l.invoice_line_number',
      'l.vat_category',
      'l.tax_rate',
      tx.raw('sum(l.quantity)::text as quantity'),
      tx.raw('sum(l.total_ht)::text as ht'),
    );
  return rows.map((r) => ({
    invoiceLineNumber: r.invoice_line_number,
    category: r.vat_category,
    rate: new Decimal(r.tax_rate),
    quantity: new Decimal(r.quantity),
    ht: new Decimal(r.ht),
  }));
}

const zero = () => new Decimal(0);

/** The balance of an invoice from its lines and what was credited (pure). */
export function balanceOf(
  invoice: InvoiceRow,
  lines: readonly InvoiceLineRow[],
  credited: readonly CreditedSum[],
): InvoiceBalance {
  const balances = lines.map((line): LineBalance => {
    const bound = credited.filter((c) => c.invoiceLineNumber === line.line_number);
    const originalQuantity = new Decimal(line.quantity);
    const originalHt = new Decimal(line.total_ht);
    const creditedQuantity = bound.reduce((s, c) => s.plus(c.quantity), zero());
    const creditedHt = bound.reduce((s, c) => s.plus(c.ht), zero());
    return {
      line,
      originalQuantity,
      creditedQuantity,
      remainingQuantity: Decimal.max(originalQuantity.minus(creditedQuantity), 0),
      originalHt,
      creditedHt,
      remainingHt: Decimal.max(originalHt.minus(creditedHt), 0),
    };
  });

  const rates = new Map<string, RateBalance>();
  for (const line of lines) {
    const key = rateKey(line.vat_category, line.tax_rate);
    const rate = rates.get(key) ?? {
      category: line.vat_category,
      rate: new Decimal(line.tax_rate),
      exemptionReason: line.vat_exemption_reason,
      exemptionCode: line.vat_exemption_reason_code,
      originalHt: zero(),
      creditedHt: zero(),
      freeCreditedHt: zero(),
      remainingHt: zero(),
    };
    rate.originalHt = rate.originalHt.plus(line.total_ht);
    rates.set(key, rate);
  }
  for (const c of credited) {
    const rate = rates.get(rateKey(c.category, c.rate));
    if (!rate) continue; // items always take a rate of the invoice
    rate.creditedHt = rate.creditedHt.plus(c.ht);
    if (c.invoiceLineNumber === null) rate.freeCreditedHt = rate.freeCreditedHt.plus(c.ht);
  }
  for (const rate of rates.values()) rate.remainingHt = Decimal.max(rate.originalHt.minus(rate.creditedHt), 0);

  const totalHt = new Decimal(invoice.total_ht);
  const creditedHt = credited.reduce((s, c) => s.plus(c.ht), zero());
  return {
    invoice,
    lines: balances,
    rates: [...rates.values()],
    totalHt,
    creditedHt,
    remainingHt: Decimal.max(totalHt.minus(creditedHt), 0),
  };
}

/** Reads an invoice's balance (the invoice and its lines already read, locked when about to credit). */
export async function readBalance(
  tx: Knex,
  invoice: InvoiceRow,
  lines: readonly InvoiceLineRow[],
): Promise<InvoiceBalance> {
  return balanceOf(invoice, lines, await creditedSums(tx, invoice.tenant_id, invoice.id));
}

/**
 * The specification's remaining-creditable response, with each line's amounts beside its
 * quantities, and the figures per VAT rate (where free items count).
 */
export function toRemainingCreditableView(balance: InvoiceBalance) {
  const money = (d: Decimal) => Number(d.toFixed(2));
  const qty = (d: Decimal) => Number(d.toFixed(4));
  return {
    invoice_id: balance.invoice.id,
    invoice_number: balance.invoice.invoice_number,
    currency: balance.invoice.currency,
    invoice_total_ht: money(balance.totalHt),
    already_credited_ht: money(balance.creditedHt),
    remaining_creditable_ht: money(balance.remainingHt),
    fully_credited: balance.remainingHt.isZero(),
    lines: balance.lines.map((b) => ({
      line_number: b.line.line_number,
      description: b.line.description,
      unit_price: Number(b.line.unit_price),
      tax_rate: Number(b.line.tax_rate),
      original_quantity: qty(b.originalQuantity),
      credited_quantity: qty(b.creditedQuantity),
      remaining_quantity: qty(b.remainingQuantity),
      original_ht: money(b.originalHt),
      credited_ht: money(b.creditedHt),
      remaining_ht: money(b.remainingHt),
    })),
    rates: balance.rates.map((r) => ({
      tax_rate: Number(r.rate),
      vat_category: r.category,
      original_ht: money(r.originalHt),
      credited_ht: money(r.creditedHt),
      free_credited_ht: money(r.freeCreditedHt),
      remaining_ht: money(r.remainingHt),
    })),
  };
}
export type RemainingCreditableView = ReturnType<typeof toRemainingCreditableView>;
