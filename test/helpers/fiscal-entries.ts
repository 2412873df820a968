import { createHash, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Environment } from '../../domain/shared/caller.js';

export const GENESIS_HASH = '0'.repeat(64);
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** RFC 8785 for the flat objects of strings and integers the tests use: sorted keys, no spaces. */
export const canonicalJson = (data: Record<string, string | number>): string =>
  `{${Object.keys(data)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${JSON.stringify(data[key])}`)
    .join(',')}}`;

export interface EntryChain {
  tenantId: string;
  environment: Environment;
  subTenantId?: string | null;
}

/** The row that appends one valid entry to a chain, given the chain's head (DECISIONS.md "Fiscal ledger"). */
export function nextEntry(
  chain: EntryChain,
  head: { sequence_number: number; chain_hash: string } | undefined,
  data: Record<string, string | number> = { invoice_number: `F-${randomUUID().slice(0, 8)}`, total_ht: 100 },
) {
  const canonical = canonicalJson(data);
  const dataHash = sha256(canonical);
  const previousHash = head?.chain_hash ?? GENESIS_HASH;
  return {
    tenant_id: chain.tenantId,
    sub_tenant_id: chain.subTenantId ?? null,
    environment: chain.environment,
    sequence_number: (head?.sequence_number ?? 0) + 1,
    entry_type: 'invoice_created',
    entity_type: 'invoice',
    entity_id: randomUUID(),
    fiscal_date: '2026-11-22',
    data: canonical,
    canonical_data: canonical,
    data_hash: dataHash,
    previous_hash: previousHash,
    chain_hash: sha256(previousHash + dataHash),
    legal_status: chain.environment === 'production' ? 'definitive' : 'test',
  };
}

/** The columns tests read back. */
export interface FiscalEntryRow {
  id: string;
  sequence_number: number;
  data_hash: string;
  previous_hash: string;
  chain_hash: string;
}

export async function chainHead(db: Knex, chain: EntryChain) {
  return db('fiscal_entries')
    .where({ tenant_id: chain.tenantId, environment: chain.environment })
    .andWhere((w) => (chain.subTenantId ? w.where('sub_tenant_id', chain.subTenantId) : w.whereNull('sub_tenant_id')))
    .orderBy('sequence_number', 'desc')
    .first<FiscalEntryRow | undefined>();
}

/** Appends `count` valid entries to a chain with the owner's connection; returns the last one. */
export async function seedFiscalEntries(db: Knex, chain: EntryChain, count = 1) {
  let head = await chainHead(db, chain);
  for (let i = 0; i < count; i++) {
    [head] = await db('fiscal_entries').insert(nextEntry(chain, head)).returning<FiscalEntryRow[]>('*');
  }
  return head!;
}
