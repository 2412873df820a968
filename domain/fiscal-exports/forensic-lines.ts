import type { Knex } from 'knex';
import type { AnchorRow } from '../anchoring/index.js';
import { type ClosingRow, chainEntries, closingHashedFields, type FiscalChain } from '../ledger/index.js';

/** Entries read per query: a long chain is exported in constant-size reads. */
const BATCH = 5000;

interface EntryRow {
  id: string;
  sub_tenant_id: string | null;
  environment: string;
  sequence_number: number;
  entry_type: string;
  entity_type: string;
  entity_id: string;
  fiscal_date: string;
  hash_version: number;
  canonical_data: string;
  data_hash: string;
  previous_hash: string;
  chain_hash: string;
  legal_status: string;
  created_at: Date;
}

/**
 * Every row of a chain in `fiscal_entries`, in sequence order, batch by batch: what the table
 * holds, gaps or repeats included (a forensic copy must show them), with `canonical_data` the
 * exact text that was hashed.
 */
export async function* entryLines(tx: Knex, chain: FiscalChain) {
  let after: { sequence: number; id: string } | null = null;
  for (;;) {
    const rows: EntryRow[] = await chainEntries(tx, chain)
      .modify((q) => {
        if (after) q.andWhereRaw('(sequence_number, id) > (?, ?::uuid)', [after.sequence, after.id]);
      })
      .orderBy([{ column: 'sequence_number' }, { column: 'id' }])
      .limit(BATCH)
      .select<EntryRow[]>('*');
    if (rows.length === 0) return;
    yield rows.map((r) => ({
      sub_tenant_id: r.sub_tenant_id,
      sequence_number: Number(r.sequence_number),
      id: r.id,
      entry_type: r.entry_type,
      entity_type: r.entity_type,
      entity_id: r.entity_id,
      fiscal_date: r.fiscal_date,
      hash_version: Number(r.hash_version),
      canonical_data: r.canonical_data,
      data_hash: r.data_hash,
      previous_hash: r.previous_hash,
      chain_hash: r.chain_hash,
      legal_status: r.legal_status,
      environment: r.environment,
      created_at: r.created_at.toISOString(),
    }));
    const last = rows[rows.length - 1];
    after = { sequence: Number(last.sequence_number), id: last.id };
    if (rows.length < BATCH) return;
  }
}

/** A closing as the archive lists it: every sealed field, its hash and the sealed text itself. */
export const closingLine = (c: ClosingRow) => ({
  ...closingHashedFields(c),
  closing_hash: c.closing_hash,
  canonical_data: c.canonical_data,
});

/** An anchor as the archive lists it, with the paths of its token and its authority's root certificate. */
export const anchorLine = (a: AnchorRow, tokenFile: string | null, caFile: string | null) => ({
  id: a.id,
  closing_id: a.entity_id,
  sub_tenant_id: a.sub_tenant_id,
  environment: a.environment,
  data_hash: a.data_hash,
  status: a.status,
  verified: a.verified,
  tsa_name: a.tsa_name,
  tsa_url: a.tsa_url,
  policy: a.policy,
  anchor_reference: a.anchor_reference,
  anchored_at: a.anchored_at?.toISOString() ?? null,
  failure_reason: a.failure_reason,
  created_at: a.created_at.toISOString(),
  token_file: tokenFile,
  ca_certificate_file: caFile,
});
