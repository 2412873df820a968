import type { Knex } from 'knex';
import { AppError } from '../shared/app-error.js';
import { prepared } from '../shared/prepared-statements.js';
import { chainClosings, shareChainClosings, sharingChainClosings } from './closing-store.js';
import type { FiscalChain } from './fiscal-chain-summary.js';
import { readingKillSwitch, refuseWhileKillSwitchActive } from './kill-switch.js';

/**
 * The fiscal-period check of invoice and credit-note creation (service-spec "Tenant invoices and
 * credit notes": creation checks the balance, the kill switch and the fiscal period). A document's
 * ledger entry is dated by its `issue_date`; once a closing (daily, monthly or yearly) covers a day,
 * that period is sealed, so a document dated on or before the last closed day is refused with 422
 * naming `issue_date`, and nothing is written.
 */

/**
 * The last day a closing of the chain covers, or null while the chain has no closing; read under
 * the chain's closing lock, shared until the transaction ends (a closing waits for this creation).
 */
export async function closedThrough(tx: Knex, chain: FiscalChain): Promise<string | null> {
  await shareChainClosings(tx, chain);
  return lastClosedDay(tx, chain);
}

/** The last day a closing of the chain covers; the caller holds the chain's closing lock. */
async function lastClosedDay(tx: Knex, chain: FiscalChain): Promise<string | null> {
  const row = await prepared(
    chainClosings(tx, chain).max<{ end: string | null }>('period_end as end'),
    'closed_through',
  ).first();
  return row?.end ?? null;
}

/** 422 on `issue_date` when the day lies in a period the chain has closed. */
export function assertDayOpen(closedEnd: string | null, day: string, field = 'issue_date'): void {
  if (closedEnd === null || day > closedEnd) return;
  throw AppError.validation({
    [field]: [`falls in a closed fiscal period: the ledger is closed through ${closedEnd}; use a later date`],
  });
}

/**
 * A creation's checks on its chain: the kill switch (503, kill-switch.ts), then the fiscal period
 * of `day` (422). Two round trips: the kill switch is read, share-locked, by the statement that
 * takes the chain's closing lock; the closed periods are read by a statement of their own, under
 * that lock (read by the same one, they would come from a snapshot taken before the lock was
 * granted, and could miss a closing that committed meanwhile).
 */
export async function assertChainOpen(tx: Knex, chain: FiscalChain, day: string, field = 'issue_date') {
  assertDayOpen(await openChainEnd(tx, chain), day, field);
}

/** The same checks for many documents of a transaction, each chain's once. */
export function chainOpenChecker(tx: Knex) {
  const ends = new Map<string, Promise<string | null>>();
  return async (chain: FiscalChain, day: string, field = 'issue_date'): Promise<void> => {
    const key = `${chain.tenantId}:${chain.environment}:${chain.subTenantId ?? ''}`;
    let end = ends.get(key);
    if (!end) {
      end = openChainEnd(tx, chain);
      ends.set(key, end);
    }
    assertDayOpen(await end, day, field);
  };
}

/** The last day the chain's closings cover, once its kill switch, read as the closing lock is taken, is found off. */
async function openChainEnd(tx: Knex, chain: FiscalChain): Promise<string | null> {
  const { rows } = await prepared(
    tx.raw<{ rows: { active: boolean | null; reason: string | null }[] }>(
      'select k.active, k.reason from (?) as closing_lock left join lateral ? as k on true',
      [sharingChainClosings(tx, chain), readingKillSwitch(tx, chain)],
    ),
    'chain_open',
  );
  refuseWhileKillSwitchActive(rows[0]);
  return lastClosedDay(tx, chain);
}
