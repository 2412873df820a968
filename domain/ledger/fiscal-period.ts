import type { Knex } from 'knex';
import { AppError } from '../shared/app-error.js';
import { prepared } from '../shared/prepared-statements.js';
import { chainClosings, shareChainClosings } from './closing-store.js';
import type { FiscalChain } from './fiscal-chain-summary.js';

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

/** Checks one document's day against its chain's closings. */
export async function assertFiscalPeriodOpen(tx: Knex, chain: FiscalChain, day: string, field = 'issue_date') {
  assertDayOpen(await closedThrough(tx, chain), day, field);
}

/** The same check for many documents of a transaction, reading each chain's closings once. */
export function fiscalPeriodChecker(tx: Knex) {
  const ends = new Map<string, Promise<string | null>>();
  return async (chain: FiscalChain, day: string, field = 'issue_date'): Promise<void> => {
    const key = `${chain.tenantId}:${chain.environment}:${chain.subTenantId ?? ''}`;
    let end = ends.get(key);
    if (!end) {
      end = closedThrough(tx, chain);
      ends.set(key, end);
    }
    assertDayOpen(await end, day, field);
  };
}
