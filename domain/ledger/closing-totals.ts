import { Decimal } from 'decimal.js';
import type { Knex } from 'knex';
import type { ClosingAmounts, ClosingTotals as ClosingTotalsSchema } from '../../schemas/fiscal-closings.js';
import { chainEntries } from './closing-store.js';
import type { FiscalChain } from './fiscal-chain-summary.js';

/** Counts and amounts (two decimals, as strings: money never passes through a float) of one currency. */
export type Amounts = ClosingAmounts;

/** Totals in euros, the fiscal currency; entries in another currency are totalled apart, never converted. */
export type ClosingTotals = ClosingTotalsSchema;

const COUNTS = ['invoices_count', 'credit_notes_count', 'payments_count'] as const;
const MONEY = [
  'invoices_ht',
  'invoices_tax',
  'invoices_ttc',
  'credit_notes_ht',
  'credit_notes_tax',
  'credit_notes_ttc',
  'net_ht',
  'net_tax',
  'net_ttc',
  'payments_amount',
] as const;

export function zeroAmounts(): Amounts {
  const out = {} as Record<string, string | number>;
  for (const k of COUNTS) out[k] = 0;
  for (const k of MONEY) out[k] = '0.00';
  return out as unknown as Amounts;
}

export const zeroTotals = (): ClosingTotals => ({ currency: 'EUR', ...zeroAmounts(), other_currencies: {} });

function addAmounts(a: Amounts, b: Amounts): Amounts {
  const out = {} as Record<string, string | number>;
  for (const k of COUNTS) out[k] = a[k] + b[k];
  for (const k of MONEY) out[k] = new Decimal(a[k]).plus(b[k]).toFixed(2);
  return out as unknown as Amounts;
}

const pick = (t: ClosingTotals): Amounts => {
  const { currency: _c, other_currencies: _o, ...amounts } = t;
  return amounts;
};

/** The sum of two totals, currency by currency. */
export function addTotals(a: ClosingTotals, b: ClosingTotals): ClosingTotals {
  const others: Record<string, Amounts> = {};
  for (const code of [...new Set([...Object.keys(a.other_currencies), ...Object.keys(b.other_currencies)])].sort()) {
    others[code] = addAmounts(a.other_currencies[code] ?? zeroAmounts(), b.other_currencies[code] ?? zeroAmounts());
  }
  return { currency: 'EUR', ...addAmounts(pick(a), pick(b)), other_currencies: others };
}

interface TotalsRow {
  currency: string;
  invoices_count: number;
  invoices_ht: string;
  invoices_tax: string;
  invoices_ttc: string;
  credit_notes_count: number;
  credit_notes_ht: string;
  credit_notes_tax: string;
  credit_notes_ttc: string;
  payments_count: number;
  payments_amount: string;
}

/**
 * The totals of the entries `first`..`last` of a chain, summed in SQL (numeric, exact) from the
 * hashed data: outgoing invoices (`invoice_created`; incoming ones are purchases, not sales),
 * credit notes (`credit_note_issued`, counted positive whatever their sign) and payments; net =
 * invoices less credit notes. Closing entries carry no amounts.
 */
export async function periodTotals(tx: Knex, chain: FiscalChain, first: number, last: number): Promise<ClosingTotals> {
  const sale = "entry_type = 'invoice_created' and coalesce(data->>'direction', 'outgoing') <> 'incoming'";
  const credit = "entry_type = 'credit_note_issued'";
  // A value that is not a decimal number counts as nothing rather than failing the statement (an
  // altered entry must be reported by the integrity check, not abort it).
  const num = (expr: string) => `(case when ${expr} ~ '^-{0,1}[0-9]+(\\.[0-9]+){0,1}$' then (${expr})::numeric end)`;
  const amount = (key: string, filter: string, abs = false) =>
    `coalesce(sum(${abs ? 'abs' : ''}(${num(`data->>'${key}'`)})) filter (where ${filter}), 0)::text`;
  const rows = await chainEntries(tx, chain)
    .whereBetween('sequence_number', [first, last])
    .andWhereNot('entry_type', 'closing')
    .groupByRaw("coalesce(data->>'currency', 'EUR')")
    .select<TotalsRow[]>(
      tx.raw("coalesce(data->>'currency', 'EUR') as currency"),
      tx.raw(`count(*) filter (where ${sale})::int as invoices_count`),
      tx.raw(`${amount('total_ht', sale)} as invoices_ht`),
      tx.raw(`${amount('total_tax', sale)} as invoices_tax`),
      tx.raw(`${amount('total_ttc', sale)} as invoices_ttc`),
      tx.raw(`count(*) filter (where ${credit})::int as credit_notes_count`),
      tx.raw(`${amount('total_ht', credit, true)} as credit_notes_ht`),
      tx.raw(`${amount('total_tax', credit, true)} as credit_notes_tax`),
      tx.raw(`${amount('total_ttc', credit, true)} as credit_notes_ttc`),
      tx.raw("count(*) filter (where entry_type = 'payment')::int as payments_count"),
      tx.raw(
        `coalesce(sum(abs(${num("coalesce(data->>'amount', data->>'total_ttc')")})) filter (where entry_type = 'payment'), 0)::text as payments_amount`,
      ),
    );
  const totals = zeroTotals();
  for (const row of rows) {
    const amounts = toAmounts(row);
    if (row.currency === 'EUR') Object.assign(totals, amounts);
    else totals.other_currencies[row.currency] = amounts;
  }
  return totals;
}

function toAmounts(row: TotalsRow): Amounts {
  const money = (v: string) => new Decimal(v).toFixed(2);
  return {
    invoices_count: Number(row.invoices_count),
    invoices_ht: money(row.invoices_ht),
    invoices_tax: money(row.invoices_tax),
    invoices_ttc: money(row.invoices_ttc),
    credit_notes_count: Number(row.credit_notes_count),
    credit_notes_ht: money(row.credit_notes_ht),
    credit_notes_tax: money(row.credit_notes_tax),
    credit_notes_ttc: money(row.credit_notes_ttc),
    net_ht: new Decimal(row.invoices_ht).minus(row.credit_notes_ht).toFixed(2),
    net_tax: new Decimal(row.invoices_tax).minus(row.credit_notes_tax).toFixed(2),
    net_ttc: new Decimal(row.invoices_ttc).minus(row.credit_notes_ttc).toFixed(2),
    payments_count: Number(row.payments_count),
    payments_amount: money(row.payments_amount),
  };
}
