import type { Knex } from 'knex';
import { Decimal } from '../billing/money.js';
import type { InvoiceLineRow, InvoiceRow } from '../invoicing/invoice-row.js';

/**
 * What is left to credit on one invoice line. Two measures are capped, both per line: the
 * quantity (units credited, never more than invoiced) and the amount excluding VAT (never more
 * than the line's `total_ht`, so a price reduction that credits part of the price also counts).
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

/** The invoice's remaining-creditable figures: per line, and in total (the sum of the lines' amounts). */
export interface InvoiceBalance {
  invoice: InvoiceRow;
  lines: LineBalance[];
  totalHt: Decimal;
  creditedHt: Decimal;
  remainingHt: Decimal;
}

/**
 * Quantities and amounts already credited per invoice line, by the invoice's credit notes that
 * were not deleted (a deleted draft gives its amount back). The caller holds the invoice row's
 * lock when it is about to credit more, so no other credit note of this invoice commits meanwhile.
 */
export async function creditedByLine(
  tx: Knex,
  tenantId: string,
  invoiceId: string,
): Promise<Map<number, { quantity: Decimal; ht: Decimal }>> {
  const rows = await tx('credit_note_lines as l')
    .join('credit_notes as c', 'c.id', 'l.credit_note_id')
    .where({ 'c.tenant_id': tenantId, 'c.invoice_id': invoiceId })
    .whereNull('c.deleted_at')
    .groupBy('l.invoice_line_number')
    .select<{ invoice_line_number: number; quantity: string; ht: string }[]>(
      'l.invoice_line_number',
      tx.raw('sum(l.quantity)::text as quantity'),
      tx.raw('sum(l.total_ht)::text as ht'),
    );
  return new Map(
    rows.map((r) => [r.invoice_line_number, { quantity: new Decimal(r.quantity), ht: new Decimal(r.ht) }]),
  );
}

/** The balance of an invoice from its lines and what was credited (pure). */
export function balanceOf(
  invoice: InvoiceRow,
  lines: readonly InvoiceLineRow[],
  credited: ReadonlyMap<number, { quantity: Decimal; ht: Decimal }>,
): InvoiceBalance {
  const balances = lines.map((line): LineBalance => {
    const done = credited.get(line.line_number);
    const originalQuantity = new Decimal(line.quantity);
    const originalHt = new Decimal(line.total_ht);
    const creditedQuantity = done?.quantity ?? new Decimal(0);
    const creditedHt = done?.ht ?? new Decimal(0);
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
  const sum = (pick: (b: LineBalance) => Decimal) => balances.reduce((s, b) => s.plus(pick(b)), new Decimal(0));
  const totalHt = new Decimal(invoice.total_ht);
  const creditedHt = sum((b) => b.creditedHt);
  return { invoice, lines: balances, totalHt, creditedHt, remainingHt: Decimal.max(totalHt.minus(creditedHt), 0) };
}

/** Reads an invoice's balance (the invoice and its lines already read, locked when about to credit). */
export async function readBalance(
  tx: Knex,
  invoice: InvoiceRow,
  lines: readonly InvoiceLineRow[],
): Promise<InvoiceBalance> {
  return balanceOf(invoice, lines, await creditedByLine(tx, invoice.tenant_id, invoice.id));
}

/** The specification's remaining-creditable response, with each line's amounts beside its quantities. */
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
  };
}
export type RemainingCreditableView = ReturnType<typeof toRemainingCreditableView>;
