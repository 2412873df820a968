import type { Knex } from 'knex';
import type { FiscalIntegrityReport } from '../../schemas/fiscal.js';
import { type AnchorRow, trustedCaPems } from '../anchoring/index.js';
import type { Environment } from '../shared/caller.js';
import { type ClosingRow, chainClosings } from './closing-store.js';
import { periodTotals, zeroTotals } from './closing-totals.js';
import { type ChainCursor, chainStart, type StoredEntry, verifyEntries } from './verify-chain.js';
import { type ClosingEvidence, verifyClosings } from './verify-closings.js';

/** Entries read per query: a long chain is verified in constant memory. */
const BATCH = 5000;

export interface IntegrityScope {
  tenantId: string;
  environment: Environment;
  /** One sub-tenant's chain; every chain of the tenant (its own and its sub-tenants') when null. */
  subTenantId: string | null;
  /**
   * Only the breaks of entries recorded on these UTC days (`from`..`to`, inclusive) and of the
   * closings that overlap them are reported; the chain is still walked from its first entry.
   */
  period: { from: string; to: string } | null;
}

/** Schema `FiscalIntegrityReport`: the type comes from the schema. */
export type IntegrityReport = FiscalIntegrityReport;

/**
 * Walks each chain in scope from its first entry, in batches by sequence number, recomputing every
 * hash and link from the stored bytes (verify-chain.ts), then checks the chain's closings against
 * what the walk saw and their RFC 3161 anchors (verify-closings.ts), and records the outcome.
 * `trusted` are the CA certificates an anchor may chain to (the built-in authority's when unset).
 */
export async function checkIntegrity(
  tx: Knex,
  scope: IntegrityScope,
  now: Date,
  trusted?: readonly string[],
): Promise<IntegrityReport> {
  const trustedCas = trusted ?? (await trustedCaPems(tx, { tsaCaCertificates: null }));
  const chains = await tx('fiscal_entries')
    .where({ tenant_id: scope.tenantId, environment: scope.environment })
    .modify((q) => {
      if (scope.subTenantId) q.andWhere({ sub_tenant_id: scope.subTenantId });
    })
    .distinct<{ sub_tenant_id: string | null }[]>('sub_tenant_id');
  const report: IntegrityReport = {
    valid: true,
    chains_checked: chains.length,
    entries_checked: 0,
    first_entry: null,
    last_entry: null,
    closings_checked: 0,
    anchors_checked: 0,
    broken_links: [],
    checked_at: now.toISOString(),
  };
  const inPeriod = (row: { created_at: Date }) => {
    if (!scope.period) return true;
    const day = row.created_at.toISOString().slice(0, 10);
    return scope.period.from <= day && day <= scope.period.to;
  };
  for (const { sub_tenant_id: subTenantId } of chains) {
    const cursor: ChainCursor = chainStart();
    let after = 0;
    const chain = { tenantId: scope.tenantId, environment: scope.environment, subTenantId };
    const closings = await chainClosings(tx, chain).orderBy('period_start').select<ClosingRow[]>('*');
    const evidence = await closingEvidence(tx, scope.tenantId, closings, trustedCas);
    const breaks: IntegrityReport['broken_links'] = [];
    for (;;) {
      const rows = await tx('fiscal_entries')
        .where({ tenant_id: scope.tenantId, environment: scope.environment })
        .modify((q) => (subTenantId ? q.andWhere({ sub_tenant_id: subTenantId }) : q.whereNull('sub_tenant_id')))
        .andWhere('sequence_number', '>', after)
        .orderBy([{ column: 'sequence_number' }, { column: 'created_at' }, { column: 'id' }])
        .limit(BATCH)
        .select<(StoredEntry & { created_at: Date; entry_type: string })[]>(
          'sequence_number',
          'entry_type',
          'data',
          'canonical_data',
          'data_hash',
          'previous_hash',
          'chain_hash',
          'created_at',
        );
      if (rows.length === 0) break;
      const inScope = (n: number) => {
        const row = rows.find((r) => Number(r.sequence_number) === n);
        return row !== undefined && inPeriod(row);
      };
      for (const link of verifyEntries(rows, cursor)) {
        if (inScope(link.sequence_number)) breaks.push({ ...link, sub_tenant_id: subTenantId });
      }
      gather(rows, evidence);
      const counted = rows.filter(inPeriod);
      report.entries_checked += counted.length;
      for (const r of counted) {
        const n = Number(r.sequence_number);
        report.first_entry = report.first_entry === null ? n : Math.min(report.first_entry, n);
        report.last_entry = report.last_entry === null ? n : Math.max(report.last_entry, n);
      }
      after = Number(rows[rows.length - 1].sequence_number);
      if (rows.length < BATCH) break;
    }
    const { period } = scope;
    const inDate = (c: ClosingRow) => !period || (c.period_start <= period.to && period.from <= c.period_end);
    for (const c of closings.filter(inDate)) {
      const count = Number(c.entries_count);
      const first = Number(c.first_sequence_number);
      evidence.recomputedTotals.set(
        c.id,
        count > 0 ? await periodTotals(tx, chain, first, Number(c.last_sequence_number)) : zeroTotals(),
      );
    }
    const checked = verifyClosings(closings, evidence, inDate);
    report.closings_checked += checked.closingsChecked;
    report.anchors_checked += checked.anchorsChecked;
    for (const link of checked.broken) breaks.push({ ...link, sub_tenant_id: subTenantId });
    // One chain's breaks in chain order: the first is the first sequence number that no longer holds.
    report.broken_links.push(...breaks.sort((a, b) => a.sequence_number - b.sequence_number));
  }
  report.valid = report.broken_links.length === 0;
  await tx('fiscal_integrity_checks').insert({
    tenant_id: scope.tenantId,
    environment: scope.environment,
    sub_tenant_id: scope.subTenantId,
    scope_date: scope.period?.from ?? null,
    scope_date_to: scope.period?.to ?? null,
    valid: report.valid,
    chains_checked: report.chains_checked,
    entries_checked: report.entries_checked,
    first_entry: report.first_entry,
    last_entry: report.last_entry,
    first_broken_sequence: report.broken_links[0]?.sequence_number ?? null,
    broken_links: JSON.stringify(report.broken_links.slice(0, 1000)),
    checked_at: now,
  });
  return report;
}

/** The closings' anchors, and empty maps the walk of the chain fills (`gather`). */
async function closingEvidence(
  tx: Knex,
  tenantId: string,
  closings: ClosingRow[],
  trustedCaPems: readonly string[],
): Promise<ClosingEvidence & { sealed: Set<number> }> {
  const anchors = closings.length
    ? await tx('fiscal_anchors')
        .where({ tenant_id: tenantId, type: 'closing' })
        .whereIn(
          'entity_id',
          closings.map((c) => c.id),
        )
        .select<AnchorRow[]>('*')
    : [];
  return {
    sealed: new Set(closings.map((c) => Number(c.last_sequence_number))),
    chainHashes: new Map(),
    closingEntries: new Map(),
    recomputedTotals: new Map(),
    anchors: new Map(anchors.map((a) => [a.entity_id, a])),
    trustedCaPems,
  };
}

/** Keeps, from a batch of entries, the chain hashes closings sealed and the closing entries. */
function gather(rows: (StoredEntry & { entry_type: string })[], evidence: ClosingEvidence & { sealed: Set<number> }) {
  for (const row of rows) {
    const n = Number(row.sequence_number);
    if (evidence.sealed.has(n)) evidence.chainHashes.set(n, row.chain_hash);
    if (row.entry_type === 'closing') {
      const data = (typeof row.data === 'string' ? JSON.parse(row.data) : row.data) as Record<string, unknown>;
      if (typeof data.closing_id === 'string') {
        evidence.closingEntries.set(data.closing_id, { sequence_number: n, closing_hash: data.closing_hash });
      }
    }
  }
}
