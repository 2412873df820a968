import type { ClosingRow } from './closing-store.js';
import { canonicalJson, sha256Hex } from './fiscal-chain.js';

/** The field list hashed into `closing_hash` is versioned, like the entries'. */
export const CLOSING_HASH_VERSION = 1;

/** Everything a closing states, as hashed: every column except the hash and the hashed text themselves. */
export function closingHashedFields(row: Omit<ClosingRow, 'closing_hash' | 'canonical_data'>) {
  return {
    hash_version: Number(row.hash_version),
    id: row.id,
    tenant_id: row.tenant_id,
    sub_tenant_id: row.sub_tenant_id,
    environment: row.environment,
    type: row.type,
    period_start: row.period_start,
    period_end: row.period_end,
    fiscal_year: Number(row.fiscal_year),
    first_sequence_number: row.first_sequence_number === null ? null : Number(row.first_sequence_number),
    last_sequence_number: Number(row.last_sequence_number),
    last_chain_hash: row.last_chain_hash,
    entries_count: Number(row.entries_count),
    totals: row.totals,
    fiscal_year_totals: row.fiscal_year_totals,
    perpetual_totals: row.perpetual_totals,
    previous_closing_hash: row.previous_closing_hash,
    ledger_entry_id: row.ledger_entry_id,
    closed_at: row.closed_at.toISOString(),
  };
}

/** `closing_hash` = SHA-256 of the RFC 8785 canonical JSON of the hashed fields; both are stored. */
export function sealClosing(fields: Omit<ClosingRow, 'closing_hash' | 'canonical_data'>): ClosingRow {
  const canonical = canonicalJson(closingHashedFields(fields));
  return { ...fields, canonical_data: canonical, closing_hash: sha256Hex(canonical) };
}
