import type { Knex } from 'knex';
import type { Environment } from '../shared/caller.js';
import { type BrokenLink, type ChainCursor, chainStart, type StoredEntry, verifyEntries } from './verify-chain.js';

/** Entries read per query: a long chain is verified in constant memory. */
const BATCH = 5000;

export interface IntegrityScope {
  tenantId: string;
  environment: Environment;
  /** One sub-tenant's chain; every chain of the tenant (its own and its sub-tenants') when null. */
  subTenantId: string | null;
  /** Only the breaks of entries recorded on this UTC day are reported (the chain is still walked from 1). */
  date: string | null;
}

export interface IntegrityReport {
  valid: boolean;
  chains_checked: number;
  entries_checked: number;
  first_entry: number | null;
  last_entry: number | null;
  broken_links: (BrokenLink & { sub_tenant_id: string | null })[];
  checked_at: string;
}

/**
 * Walks each chain in scope from its first entry, in batches by sequence number, recomputing every
 * hash and link from the stored bytes (verify-chain.ts), and records the outcome.
 */
export async function checkIntegrity(tx: Knex, scope: IntegrityScope, now: Date): Promise<IntegrityReport> {
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
    broken_links: [],
    checked_at: now.toISOString(),
  };
  for (const { sub_tenant_id: subTenantId } of chains) {
    const cursor: ChainCursor = chainStart();
    let after = 0;
    for (;;) {
      const rows = await tx('fiscal_entries')
        .where({ tenant_id: scope.tenantId, environment: scope.environment })
        .modify((q) => (subTenantId ? q.andWhere({ sub_tenant_id: subTenantId }) : q.whereNull('sub_tenant_id')))
        .andWhere('sequence_number', '>', after)
        .orderBy([{ column: 'sequence_number' }, { column: 'created_at' }, { column: 'id' }])
        .limit(BATCH)
        .select<(StoredEntry & { created_at: Date })[]>(
          'sequence_number',
          'data',
          'canonical_data',
          'data_hash',
          'previous_hash',
          'chain_hash',
          'created_at',
        );
      if (rows.length === 0) break;
      const inScope = (n: number) => {
        if (!scope.date) return true;
        const row = rows.find((r) => Number(r.sequence_number) === n);
        return row?.created_at.toISOString().slice(0, 10) === scope.date;
      };
      for (const link of verifyEntries(rows, cursor)) {
        if (inScope(link.sequence_number)) report.broken_links.push({ ...link, sub_tenant_id: subTenantId });
      }
      const counted = scope.date ? rows.filter((r) => r.created_at.toISOString().slice(0, 10) === scope.date) : rows;
      report.entries_checked += counted.length;
      for (const r of counted) {
        const n = Number(r.sequence_number);
        report.first_entry = report.first_entry === null ? n : Math.min(report.first_entry, n);
        report.last_entry = report.last_entry === null ? n : Math.max(report.last_entry, n);
      }
      after = Number(rows[rows.length - 1].sequence_number);
      if (rows.length < BATCH) break;
    }
  }
  report.valid = report.broken_links.length === 0;
  await tx('fiscal_integrity_checks').insert({
    tenant_id: scope.tenantId,
    environment: scope.environment,
    sub_tenant_id: scope.subTenantId,
    scope_date: scope.date,
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
