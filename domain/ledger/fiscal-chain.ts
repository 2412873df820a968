import { createHash, randomUUID } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { Knex } from 'knex';
import type { TableRows } from '../shared/insert-together.js';
import { prepared } from '../shared/prepared-statements.js';
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

export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** RFC 8785 (JSON Canonicalization Scheme): the exact text that is hashed and stored. */
export const canonicalJson = (value: unknown): string => {
  const text = canonicalize(value);
  if (text === undefined) throw new Error('cannot canonicalise an undefined value');
  return text;
};

/**
 * Records a fact for the chain in the caller's business transaction; it is appended when the
 * transaction commits. A deferred trigger (migrations/20261122002600_create_fiscal_pending.ts, and
 * 20261126002000 for appending a chain's facts at once) takes the chain's transaction-scoped
 * advisory lock, reads the head once and inserts the transaction's linked entries of that chain in
 * the order they were recorded, so no two writers pick the same number: no gap, no fork. The lock is held for the append and the commit only, not across round trips, and a
 * rolled-back transaction appends nothing. The database checks the hashes and the link again.
 * Returns the entry's id (given, or chosen here), which a deferred foreign key may point at.
 */
export async function appendFiscalEntry(tx: Knex, chain: FiscalChain, fact: FiscalFact): Promise<{ id: string }> {
  const [id] = await appendFiscalEntries(tx, [{ chain, fact }]);
  return { id };
}

/**
 * Many facts in one insert (a batch of creations). They are appended at commit in the order given,
 * so a batch lists them chain by chain (`compareChains`): two batches that touch the same chains
 * then take the chains' locks in the same order and cannot deadlock.
 */
export async function appendFiscalEntries(
  tx: Knex,
  facts: readonly { chain: FiscalChain; fact: FiscalFact }[],
): Promise<string[]> {
  const { ids, pending } = fiscalPendingRows(facts);
  if (ids.length > 0) await prepared(tx('fiscal_pending').insert(pending.rows), 'insert_fiscal_pending');
  return ids;
}

/**
 * What `appendFiscalEntries` inserts, for a caller that writes it with other rows in one statement
 * (insert-together.ts), ahead of anything a deferred foreign key checks against the entries: their
 * ids, and the `fiscal_pending` rows, appended at commit in the order given.
 */
export function fiscalPendingRows(facts: readonly { chain: FiscalChain; fact: FiscalFact }[]): {
  ids: string[];
  pending: TableRows;
} {
  const rows = facts.map(({ chain, fact }) => ({
    id: fact.id ?? randomUUID(),
    tenant_id: chain.tenantId,
    sub_tenant_id: chain.subTenantId,
    environment: chain.environment,
    entry_type: fact.entryType,
    entity_type: fact.entityType,
    entity_id: fact.entityId,
    fiscal_date: fact.fiscalDate,
    hash_version: HASH_VERSION,
    canonical_data: canonicalJson({ ...fact.data, hash_version: HASH_VERSION }),
    created_at: fact.now,
  }));
  return { ids: rows.map((row) => row.id), pending: { table: 'fiscal_pending', rows } };
}

/** Orders chains by their lock key: tenant, environment, then sub-tenant (none first). */
export const compareChains = (a: FiscalChain, b: FiscalChain): number =>
  a.tenantId.localeCompare(b.tenantId) ||
  a.environment.localeCompare(b.environment) ||
  (a.subTenantId ?? '').localeCompare(b.subTenantId ?? '');
