import type { ClosingRow } from '../ledger/index.js';

/** A closing as reports name it: which period, when, and its seal. */
export interface ClosingRef {
  id: string;
  date: string;
  period_end: string;
  closed_at: string;
  closing_hash: string;
  sub_tenant_id: string | null;
}

export const closingRef = (row: ClosingRow | undefined): ClosingRef | null =>
  row
    ? {
        id: row.id,
        date: row.period_start,
        period_end: row.period_end,
        closed_at: row.closed_at.toISOString(),
        closing_hash: row.closing_hash,
        sub_tenant_id: row.sub_tenant_id,
      }
    : null;

/** The most recent of several closings (latest period, then latest made), or null. */
export const latestOf = (refs: readonly (ClosingRef | null)[]): ClosingRef | null =>
  refs.reduce<ClosingRef | null>((best, ref) => {
    if (!ref) return best;
    if (!best || ref.date > best.date || (ref.date === best.date && ref.closed_at > best.closed_at)) return ref;
    return best;
  }, null);
