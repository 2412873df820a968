import type { Knex } from 'knex';
import type { BalanceTransactionType } from './balance-store.js';
import { addMonths, firstDay } from './billing-period.js';
import { Decimal } from './money.js';

/** The debits of paid operations: what a month's usage is counted from (production only; sandbox is free). */
export const USAGE_TYPES = {
  invoice_created: 'invoices',
  signature_created: 'signatures',
  credit_note_created: 'creditNotes',
} as const satisfies Partial<Record<BalanceTransactionType, string>>;

export interface MonthUsage {
  month: string;
  invoices: number;
  signatures: number;
  creditNotes: number;
  /** What the month's usage debits took from the balance (a positive amount). */
  debited: Decimal;
}

export const emptyUsage = (month: string): MonthUsage => ({
  month,
  invoices: 0,
  signatures: 0,
  creditNotes: 0,
  debited: new Decimal(0),
});

/**
 * Leaves out the `signature_created` debit of a request refunded since (a failed request,
 * docs/decisions/0092): a refunded signature is not usage, whatever month the refund fell in.
 */
function notRefunded(tx: Knex, alias: string) {
  return tx('balance_transactions as refund')
    .select(tx.raw('1'))
    .where('refund.type', 'signature_refunded')
    .andWhere('refund.tenant_id', tx.ref(`${alias}.tenant_id`))
    .andWhere('refund.reference_id', tx.ref(`${alias}.reference_id`))
    .andWhere(`${alias}.type`, 'signature_created');
}

/** `created_at` within the Paris months `from`..`to` (both included). */
export function inParisMonths(tx: Knex, column: string, from: string, to: string) {
  return tx.raw(
    `${column} >= (?::date)::timestamp at time zone 'Europe/Paris' and ${column} < (?::date)::timestamp at time zone 'Europe/Paris'`,
    [firstDay(from), firstDay(addMonths(to, 1))],
  );
}

/**
 * A tenant's usage per Paris month from `from` to `to`, counted from its balance's usage debits in
 * one grouped statement (the `(tenant_id, created_at)` index bounds it), refunded signatures left
 * out. Months without usage are absent from the map.
 */
export async function monthlyUsage(
  tx: Knex,
  tenantId: string,
  from: string,
  to: string,
): Promise<Map<string, MonthUsage>> {
  const rows = await tx('balance_transactions as b')
    .where('b.tenant_id', tenantId)
    .whereIn('b.type', Object.keys(USAGE_TYPES))
    .andWhere(inParisMonths(tx, 'b.created_at', from, to))
    .whereNotExists(notRefunded(tx, 'b'))
    .groupByRaw('1, 2')
    .select<{ month: string; type: keyof typeof USAGE_TYPES; count: number; debited: string }[]>(
      tx.raw(`to_char(b.created_at at time zone 'Europe/Paris', 'YYYY-MM') as month`),
      'b.type',
      tx.raw('count(*)::integer as count'),
      tx.raw('sum(-b.amount)::text as debited'),
    );
  const usage = new Map<string, MonthUsage>();
  for (const row of rows) {
    const month = usage.get(row.month) ?? emptyUsage(row.month);
    month[USAGE_TYPES[row.type]] += row.count;
    month.debited = month.debited.plus(row.debited);
    usage.set(row.month, month);
  }
  return usage;
}

/** The platform tenants with usage debits in a month (the tenants the monthly run bills). */
export async function tenantsWithUsage(tx: Knex, month: string, tenantId?: string): Promise<string[]> {
  const rows = await tx('balance_transactions as b')
    .join('tenants as t', 't.id', 'b.tenant_id')
    .where('t.kind', 'platform')
    .whereIn('b.type', Object.keys(USAGE_TYPES))
    .andWhere(inParisMonths(tx, 'b.created_at', month, month))
    .whereNotExists(notRefunded(tx, 'b'))
    .modify((q) => {
      if (tenantId) q.andWhere('b.tenant_id', tenantId);
    })
    .distinct<{ tenant_id: string }[]>('b.tenant_id')
    .orderBy('b.tenant_id');
  return rows.map((r) => r.tenant_id);
}
