import type { Knex } from 'knex';
import type { ClosingTotals } from './closing-amounts.js';
import type { ClosingType } from './closing-periods.js';
import { type FiscalChain, NO_SUB_TENANT } from './fiscal-chain-summary.js';

/** A closing as stored (migrations/20261122003000_create_fiscal_closings.ts). */
export interface ClosingRow {
  id: string;
  tenant_id: string;
  sub_tenant_id: string | null;
  environment: FiscalChain['environment'];
  type: ClosingType;
  period_start: string;
  period_end: string;
  fiscal_year: number;
  first_sequence_number: number | null;
  last_sequence_number: number;
  last_chain_hash: string;
  entries_count: number;
  totals: ClosingTotals;
  fiscal_year_totals: ClosingTotals;
  perpetual_totals: ClosingTotals;
  previous_closing_hash: string;
  closing_hash: string;
  hash_version: number;
  canonical_data: string;
  ledger_entry_id: string;
  closed_at: Date;
}

/** The chain key as the unique indexes spell it, so they serve the query. */
const sameChain = (q: Knex.QueryBuilder, chain: FiscalChain) =>
  q
    .where({ tenant_id: chain.tenantId, environment: chain.environment })
    .andWhereRaw('coalesce(sub_tenant_id, ?::uuid) = ?::uuid', [NO_SUB_TENANT, chain.subTenantId ?? NO_SUB_TENANT]);

export const chainEntries = (tx: Knex, chain: FiscalChain) => sameChain(tx('fiscal_entries'), chain);
export const chainClosings = (tx: Knex, chain: FiscalChain) => sameChain(tx('fiscal_closings'), chain);

/** When a chain began (its entry 1), or undefined for a chain with no entry yet. */
export async function chainStartedAt(tx: Knex, chain: FiscalChain): Promise<Date | undefined> {
  const row = await chainEntries(tx, chain)
    .andWhere({ sequence_number: 1 })
    .first<{ created_at: Date } | undefined>('created_at');
  return row?.created_at;
}

/**
 * The last entry appended before an instant: what a closing of the period ending then seals.
 * Numbers follow commit order, so this is the head as it stood, plus any entry stamped just before
 * the instant that committed just after (that one belongs to the next closing if this one already ran).
 */
export async function headBefore(tx: Knex, chain: FiscalChain, instant: Date) {
  return chainEntries(tx, chain)
    .andWhere('created_at', '<', instant)
    .orderBy('sequence_number', 'desc')
    .first<{ sequence_number: number; chain_hash: string } | undefined>('sequence_number', 'chain_hash');
}

export async function lastClosing(tx: Knex, chain: FiscalChain, type: ClosingType): Promise<ClosingRow | undefined> {
  return chainClosings(tx, chain).andWhere({ type }).orderBy('period_start', 'desc').first<ClosingRow | undefined>();
}

export async function findClosing(
  tx: Knex,
  chain: FiscalChain,
  type: ClosingType,
  periodStart: string,
): Promise<ClosingRow | undefined> {
  return chainClosings(tx, chain).andWhere({ type, period_start: periodStart }).first<ClosingRow | undefined>();
}

export async function insertClosing(tx: Knex, row: ClosingRow): Promise<void> {
  await tx('fiscal_closings').insert({
    ...row,
    totals: JSON.stringify(row.totals),
    fiscal_year_totals: JSON.stringify(row.fiscal_year_totals),
    perpetual_totals: JSON.stringify(row.perpetual_totals),
  });
}

/**
 * Closers of one chain take turns until commit (a transaction-scoped advisory lock), so two
 * workers, or a worker and a manual call, never close the same period twice: the second one
 * waits, then finds the first one's closing. The unique index stands behind it.
 */
export async function lockChainClosings(tx: Knex, chain: FiscalChain): Promise<void> {
  await tx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [closingLockKey(chain)]);
}

/**
 * The same lock, shared, for creations that check the fiscal period (fiscal-period.ts): they run
 * side by side, while a closing of the chain waits for those in flight and they wait for it, so
 * none reads the closed periods just before a closing commits a later one.
 */
export async function shareChainClosings(tx: Knex, chain: FiscalChain): Promise<void> {
  await sharingChainClosings(tx, chain);
}

/** The statement `shareChainClosings` runs, for a caller that runs it as part of a larger one. */
export const sharingChainClosings = (tx: Knex, chain: FiscalChain) =>
  tx.raw('select pg_advisory_xact_lock_shared(hashtextextended(?, 0))', [closingLockKey(chain)]);

const closingLockKey = (chain: FiscalChain) =>
  `fiscal-closing:${chain.tenantId}:${chain.environment}:${chain.subTenantId ?? '-'}`;
