import type { Knex } from 'knex';
import type { Environment } from '../shared/caller.js';

/** `fiscal_entries_chain_sequence_unique` keys the tenant's own chain with this id. */
export const NO_SUB_TENANT = '00000000-0000-0000-0000-000000000000';

/** One fiscal chain: a tenant's own (no sub-tenant) or one sub-tenant's, in one environment. */
export interface FiscalChain {
  tenantId: string;
  environment: Environment;
  subTenantId: string | null;
}

export interface FiscalChainSummary {
  entriesCount: number;
  lastSequenceNumber: number | null;
  lastChainHash: string | null;
  lastEntryAt: Date | null;
}

/** Length and head of a chain, read from `fiscal_entries` (migrations/20261122001600_create_fiscal_entries.ts). */
export async function fiscalChainSummary(tx: Knex, chain: FiscalChain): Promise<FiscalChainSummary> {
  const entries = () =>
    tx('fiscal_entries')
      .where({ tenant_id: chain.tenantId, environment: chain.environment })
      // The chain key as the unique index spells it, so the index serves both the count and the head.
      .andWhereRaw('coalesce(sub_tenant_id, ?::uuid) = ?::uuid', [NO_SUB_TENANT, chain.subTenantId ?? NO_SUB_TENANT]);
  const [{ n }] = await entries().count<{ n: number }[]>({ n: '*' });
  const last = await entries()
    .orderBy('sequence_number', 'desc')
    .first<{ sequence_number: number; chain_hash: string; created_at: Date } | undefined>(
      'sequence_number',
      'chain_hash',
      'created_at',
    );
  return {
    entriesCount: Number(n),
    lastSequenceNumber: last ? Number(last.sequence_number) : null,
    lastChainHash: last?.chain_hash ?? null,
    lastEntryAt: last?.created_at ?? null,
  };
}

/** Entries recorded for a sub-tenant, in any chain: what the fiscal-retention policy protects. */
export async function countSubTenantEntries(tx: Knex, tenantId: string, subTenantId: string): Promise<number> {
  const [{ n }] = await tx('fiscal_entries')
    .where({ tenant_id: tenantId, sub_tenant_id: subTenantId })
    .count<{ n: number }[]>({ n: '*' });
  return Number(n);
}
