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
 * Appends a fact to its chain inside the caller's business transaction, in one round trip: the
 * `fiscal_append` SQL function (migrations/20261122002500_create_fiscal_append.ts) takes the
 * chain's transaction-scoped advisory lock, reads the head and inserts the linked entry, so two
 * writers never pick the same number: no gap, no fork. The lock is held until commit, so callers
 * append last. The database checks the hashes and the link again.
 */
export async function appendFiscalEntry(tx: Knex, chain: FiscalChain, fact: FiscalFact): Promise<AppendedEntry> {
  const canonical = canonicalJson({ ...fact.data, hash_version: HASH_VERSION });
  const { rows } = await tx.raw<{ rows: { id: string; sequence_number: number; chain_hash: string }[] }>(
    'select * from fiscal_append(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [
      fact.id ?? null,
      chain.tenantId,
      chain.subTenantId,
      chain.environment,
      fact.entryType,
      fact.entityType,
      fact.entityId,
      fact.fiscalDate,
      HASH_VERSION,
      canonical,
      fact.now,
    ],
  );
  const [row] = rows;
  return { id: row.id, sequenceNumber: Number(row.sequence_number), chainHash: row.chain_hash };
}
