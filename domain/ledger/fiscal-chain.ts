import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { Knex } from 'knex';
import type { FiscalChain } from './fiscal-chain-summary.js';

/** The first entry of every chain links to 64 zeros (DECISIONS.md "Fiscal ledger"). */
export const GENESIS_HASH = '0'.repeat(64);
/** The field list of `data` is versioned; this is the version new entries are written with. */
export const HASH_VERSION = 1;

export type FiscalEntryType = 'invoice_created' | 'credit_note_issued' | 'payment' | 'closing';

/** What a business operation records; every value is a string or an integer so its canonical form is exact. */
export interface FiscalFact {
  /** The entry's id when the caller must know it beforehand (a deferred foreign key points at it). */
  id?: string;
  entryType: FiscalEntryType;
  entityType: string;
  entityId: string;
  /** The fiscal date (YYYY-MM-DD) the fact belongs to: an invoice's issue date. */
  fiscalDate: string;
  data: Record<string, string | number | boolean | null>;
  now: Date;
}

export interface AppendedEntry {
  id: string;
  sequenceNumber: number;
  chainHash: string;
}

export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** RFC 8785 (JSON Canonicalization Scheme): the exact text that is hashed and stored. */
export const canonicalJson = (value: unknown): string => {
  const text = canonicalize(value);
  if (text === undefined) throw new Error('cannot canonicalise an undefined value');
  return text;
};

/**
 * Appends a fact to its chain inside the caller's business transaction. A transaction-scoped
 * advisory lock on the chain serialises appenders (the lock is released at commit or rollback),
 * so two writers never pick the same number: no gap, no fork. The database checks the link again
 * (migrations/20261122001600_create_fiscal_entries.ts).
 */
export async function appendFiscalEntry(tx: Knex, chain: FiscalChain, fact: FiscalFact): Promise<AppendedEntry> {
  const key = `fiscal:${chain.tenantId}:${chain.environment}:${chain.subTenantId ?? '-'}`;
  await tx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [key]);
  const head = await tx('fiscal_entries')
    .where({ tenant_id: chain.tenantId, environment: chain.environment })
    .andWhereRaw("coalesce(sub_tenant_id, '00000000-0000-0000-0000-000000000000'::uuid) = ?::uuid", [
      chain.subTenantId ?? '00000000-0000-0000-0000-000000000000',
    ])
    .orderBy('sequence_number', 'desc')
    .first<{ sequence_number: string; chain_hash: string } | undefined>('sequence_number', 'chain_hash');
  const sequenceNumber = head ? Number(head.sequence_number) + 1 : 1;
  const data = { ...fact.data, hash_version: HASH_VERSION };
  const canonical = canonicalJson(data);
  const dataHash = sha256Hex(canonical);
  const previousHash = head?.chain_hash ?? GENESIS_HASH;
  const chainHash = sha256Hex(previousHash + dataHash);
  const [row] = await tx('fiscal_entries')
    .insert({
      ...(fact.id ? { id: fact.id } : {}),
      tenant_id: chain.tenantId,
      sub_tenant_id: chain.subTenantId,
      environment: chain.environment,
      sequence_number: sequenceNumber,
      entry_type: fact.entryType,
      entity_type: fact.entityType,
      entity_id: fact.entityId,
      fiscal_date: fact.fiscalDate,
      hash_version: HASH_VERSION,
      data: canonical,
      canonical_data: canonical,
      data_hash: dataHash,
      previous_hash: previousHash,
      chain_hash: chainHash,
      legal_status: chain.environment === 'production' ? 'definitive' : 'test',
      created_at: fact.now,
    })
    .returning<{ id: string }[]>('id');
  return { id: row.id, sequenceNumber, chainHash };
}
