import type { Knex } from 'knex';
import type { ClosingRow } from './closing-store.js';

interface AnchorSummaryRow {
  id: string;
  entity_id: string;
  status: 'pending' | 'anchored' | 'failed';
  verified: boolean;
  anchored_at: Date | null;
}

/** The spec's Closing, with the bytes that were hashed and its anchor's state. */
export function toClosingView(row: ClosingRow, anchor: AnchorSummaryRow | undefined) {
  return {
    id: row.id,
    type: row.type,
    date: row.period_start,
    period_start: row.period_start,
    period_end: row.period_end,
    sub_tenant_id: row.sub_tenant_id,
    environment: row.environment,
    fiscal_year: Number(row.fiscal_year),
    first_sequence_number: row.first_sequence_number === null ? null : Number(row.first_sequence_number),
    last_sequence_number: Number(row.last_sequence_number),
    last_chain_hash: row.last_chain_hash,
    entries_count: Number(row.entries_count),
    totals: row.totals,
    fiscal_year_totals: row.fiscal_year_totals,
    perpetual_totals: row.perpetual_totals,
    previous_closing_hash: row.previous_closing_hash,
    closing_hash: row.closing_hash,
    hash_version: Number(row.hash_version),
    hashed_data: row.canonical_data,
    ledger_entry_id: row.ledger_entry_id,
    closed_at: row.closed_at.toISOString(),
    anchor: anchor
      ? {
          id: anchor.id,
          status: anchor.status,
          verified: anchor.verified,
          anchored_at: anchor.anchored_at?.toISOString() ?? null,
        }
      : null,
  };
}
export type ClosingView = ReturnType<typeof toClosingView>;

/** Views of closings, with their anchors read in one query. */
export async function closingViews(tx: Knex, tenantId: string, rows: ClosingRow[]): Promise<ClosingView[]> {
  if (rows.length === 0) return [];
  const anchors = await tx('fiscal_anchors')
    .where({ tenant_id: tenantId, type: 'closing' })
    .whereIn(
      'entity_id',
      rows.map((r) => r.id),
    )
    .select<AnchorSummaryRow[]>('id', 'entity_id', 'status', 'verified', 'anchored_at');
  const byClosing = new Map(anchors.map((a) => [a.entity_id, a]));
  return rows.map((row) => toClosingView(row, byClosing.get(row.id)));
}
