import { canonicalJson, GENESIS_HASH, sha256Hex } from './fiscal-chain.js';

/** The stored columns a verification reads: the exact bytes that were hashed, and the links. */
export interface StoredEntry {
  sequence_number: number;
  data: unknown;
  canonical_data: string;
  data_hash: string;
  previous_hash: string;
  chain_hash: string;
}

export type BreakReason =
  | 'sequence_gap'
  | 'sequence_duplicate'
  | 'data_altered'
  | 'data_hash_mismatch'
  | 'previous_hash_mismatch'
  | 'chain_hash_mismatch'
  // Closings and their anchors (verify-closings.ts):
  | 'closing_hash_mismatch'
  | 'closing_altered'
  | 'closing_link_mismatch'
  | 'closing_range_mismatch'
  | 'closing_seal_mismatch'
  | 'closing_totals_mismatch'
  | 'closing_entry_mismatch'
  | 'anchor_mismatch';

export interface BrokenLink {
  sequence_number: number;
  reason: BreakReason;
  detail: string;
}

/** Where a verification stands between two batches of one chain. */
export interface ChainCursor {
  /** The sequence number expected next (1 at the start of a chain). */
  expected: number;
  /** The chain hash the next entry must link to. */
  previousHash: string;
}

export const chainStart = (): ChainCursor => ({ expected: 1, previousHash: GENESIS_HASH });

/**
 * Recomputes a run of entries, in sequence order, from their stored bytes (DECISIONS.md "Fiscal
 * ledger"): the canonical text must be what `data` says; `data_hash` = SHA-256(canonical text);
 * each entry links to the chain hash of the one before; `chain_hash` = SHA-256(previous_hash ||
 * data_hash); numbers run without gap or repeat. Every break is reported with its sequence number;
 * the walk continues from the stored values, so one bad entry does not hide the next ones.
 */
export function verifyEntries(entries: readonly StoredEntry[], cursor: ChainCursor): BrokenLink[] {
  const broken: BrokenLink[] = [];
  for (const entry of entries) {
    const n = Number(entry.sequence_number);
    const add = (reason: BreakReason, detail: string) => broken.push({ sequence_number: n, reason, detail });
    if (n < cursor.expected) add('sequence_duplicate', `sequence ${n} appears again after ${cursor.expected - 1}`);
    else if (n > cursor.expected) add('sequence_gap', `sequence ${cursor.expected} to ${n - 1} missing`);
    if (canonicalOrNull(entry.data) !== entry.canonical_data) {
      add('data_altered', 'the stored data no longer matches its canonical text');
    }
    const dataHash = sha256Hex(entry.canonical_data);
    if (dataHash !== entry.data_hash) add('data_hash_mismatch', 'data_hash is not the SHA-256 of the canonical text');
    if (entry.previous_hash !== cursor.previousHash) {
      add('previous_hash_mismatch', 'previous_hash is not the chain_hash of the entry before');
    }
    if (sha256Hex(entry.previous_hash + entry.data_hash) !== entry.chain_hash) {
      add('chain_hash_mismatch', 'chain_hash is not SHA-256(previous_hash || data_hash)');
    }
    cursor.expected = Math.max(cursor.expected, n + 1);
    cursor.previousHash = entry.chain_hash;
  }
  return broken;
}

function canonicalOrNull(data: unknown): string | null {
  try {
    return canonicalJson(typeof data === 'string' ? JSON.parse(data) : data);
  } catch {
    return null;
  }
}
