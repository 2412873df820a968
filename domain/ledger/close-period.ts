import { randomUUID } from 'node:crypto';
import { insertPendingAnchor } from '../anchoring/index.js';
import type { OperationContext } from '../shared/operation.js';
import { type Period, periodEndsAt } from './closing-periods.js';
import { CLOSING_HASH_VERSION, sealClosing } from './closing-record.js';
import { type ClosingRow, headBefore, insertClosing } from './closing-store.js';
import { addTotals, periodTotals, zeroTotals } from './closing-totals.js';
import { appendFiscalEntry, GENESIS_HASH } from './fiscal-chain.js';
import type { FiscalChain } from './fiscal-chain-summary.js';

/**
 * Closes one period of a chain, in the caller's transaction, right after `previous` (the last
 * closing of the same chain and type, or none). It covers every entry appended since `previous`
 * and before the period ended, so the closings of a type partition the chain with no overlap and
 * no gap; an empty period still gets a closing, with zero totals, once the chain exists. Totals
 * come from the entries, the fiscal-year total (calendar year) and the perpetual total from
 * `previous`. The closing is sealed (closing_hash), recorded as a `closing` entry of the chain,
 * and given a pending RFC 3161 anchor whose job is queued in the same transaction.
 * Returns null when the chain had no entry yet when the period ended.
 */
export async function closePeriod(
  ctx: OperationContext,
  chain: FiscalChain,
  period: Period,
  previous: ClosingRow | undefined,
): Promise<ClosingRow | null> {
  const head = await headBefore(ctx.tx, chain, periodEndsAt(period));
  if (!head) return null;
  const sealedBefore = previous ? Number(previous.last_sequence_number) : 0;
  const last = Math.max(Number(head.sequence_number), sealedBefore);
  const count = last - sealedBefore;
  const totals = count > 0 ? await periodTotals(ctx.tx, chain, sealedBefore + 1, last) : zeroTotals();
  const fiscalYear = Number(period.start.slice(0, 4));
  const now = ctx.clock.now();
  const closing = sealClosing({
    id: randomUUID(),
    tenant_id: chain.tenantId,
    sub_tenant_id: chain.subTenantId,
    environment: chain.environment,
    type: period.type,
    period_start: period.start,
    period_end: period.end,
    fiscal_year: fiscalYear,
    first_sequence_number: count > 0 ? sealedBefore + 1 : null,
    last_sequence_number: last,
    last_chain_hash: count > 0 || !previous ? head.chain_hash : previous.last_chain_hash,
    entries_count: count,
    totals,
    fiscal_year_totals:
      previous && Number(previous.fiscal_year) === fiscalYear ? addTotals(previous.fiscal_year_totals, totals) : totals,
    perpetual_totals: previous ? addTotals(previous.perpetual_totals, totals) : totals,
    previous_closing_hash: previous?.closing_hash ?? GENESIS_HASH,
    hash_version: CLOSING_HASH_VERSION,
    ledger_entry_id: randomUUID(),
    closed_at: now,
  });
  // The entry first: it is appended at commit, ahead of the deferred key that checks it.
  await appendFiscalEntry(ctx.tx, chain, {
    id: closing.ledger_entry_id,
    entryType: 'closing',
    entityType: 'closing',
    entityId: closing.id,
    fiscalDate: period.end,
    now,
    data: {
      closing_id: closing.id,
      closing_type: closing.type,
      period_start: closing.period_start,
      period_end: closing.period_end,
      first_sequence_number: closing.first_sequence_number,
      last_sequence_number: closing.last_sequence_number,
      last_chain_hash: closing.last_chain_hash,
      entries_count: closing.entries_count,
      net_ht: closing.totals.net_ht,
      closing_hash: closing.closing_hash,
      recorded_at: now.toISOString(),
    },
  });
  await insertClosing(ctx.tx, closing);
  const anchorId = await insertPendingAnchor(ctx.tx, {
    tenant_id: chain.tenantId,
    sub_tenant_id: chain.subTenantId,
    environment: chain.environment,
    entity_id: closing.id,
    data_hash: closing.closing_hash,
    created_at: now,
  });
  await ctx.jobs.send(
    'anchor-fiscal-closing',
    { tenantId: chain.tenantId, anchorId },
    { group: { id: chain.tenantId }, singletonKey: anchorId },
  );
  return closing;
}
