import { type AnchorRow, verifyTimeStampToken } from '../anchoring/index.js';
import type { ClosingTotals } from './closing-amounts.js';
import { CLOSING_TYPES } from './closing-periods.js';
import { closingHashedFields } from './closing-record.js';
import type { ClosingRow } from './closing-store.js';
import { addTotals, zeroTotals } from './closing-totals.js';
import { canonicalJson, GENESIS_HASH, sha256Hex } from './fiscal-chain.js';
import type { BrokenLink } from './verify-chain.js';

/** What the walk of a chain gathered for its closings. */
export interface ClosingEvidence {
  /** The stored chain hash of each entry a closing sealed (its last sequence number). */
  chainHashes: Map<number, string>;
  /** The `closing` entries of the chain, by closing id: where they sit and the hash they recorded. */
  closingEntries: Map<string, { sequence_number: number; closing_hash: unknown }>;
  /** The anchor of each closing, by closing id. */
  anchors: Map<string, AnchorRow>;
  /** Each closing's totals, summed again from the entries it covers. */
  recomputedTotals: Map<string, ClosingTotals>;
  /** CA certificates an anchor's stored CA must be one of (the built-in authority's, TSA_CA_CERT). */
  trustedCaPems: readonly string[];
}

/**
 * Checks a chain's closings, each type in period order (DECISIONS.md "Fiscal ledger"): the stored
 * text hashes to `closing_hash` and says what the columns say; each closing links to the previous
 * one's hash and starts where it ended; the entry it sealed still has the chain hash it sealed;
 * its totals are the sum of those entries and its cumulative totals add up from the closing
 * before; its `closing` entry on the chain records the same hash; and its RFC 3161 token still verifies
 * against `closing_hash`. A chain rewritten with every hash recomputed passes the entry checks but
 * not these: the sealed hash, or failing that the anchored hash, no longer matches. Each break is
 * reported at the first entry the broken closing covers (entries before it are vouched for by the
 * closing before), with the closing's id.
 */
export function verifyClosings(
  closings: readonly ClosingRow[],
  evidence: ClosingEvidence,
  inScope: (closing: ClosingRow) => boolean = () => true,
): { broken: (BrokenLink & { closing_id: string })[]; closingsChecked: number; anchorsChecked: number } {
  const broken: (BrokenLink & { closing_id: string })[] = [];
  let anchorsChecked = 0;
  let closingsChecked = 0;
  for (const type of CLOSING_TYPES) {
    let previousHash = GENESIS_HASH;
    let sealedBefore = 0;
    let before: ClosingRow | undefined;
    for (const c of closings.filter((row) => row.type === type)) {
      const first = c.first_sequence_number === null ? null : Number(c.first_sequence_number);
      const last = Number(c.last_sequence_number);
      const at = first ?? last;
      const name = `the ${type} closing of ${c.period_start}`;
      // Out of scope (an integrity check of one day), a closing is still walked for the links.
      const reported = inScope(c);
      if (reported) closingsChecked++;
      const add = (reason: BrokenLink['reason'], detail: string) => {
        if (reported) broken.push({ sequence_number: at, reason, detail: `${name}: ${detail}`, closing_id: c.id });
      };
      if (sha256Hex(c.canonical_data) !== c.closing_hash) {
        add('closing_hash_mismatch', 'closing_hash is not the SHA-256 of its hashed data');
      }
      if (canonicalOrNull(c) !== c.canonical_data)
        add('closing_altered', 'its columns no longer match its hashed data');
      if (c.previous_closing_hash !== previousHash) {
        add('closing_link_mismatch', 'previous_closing_hash is not the hash of the closing before');
      }
      const count = Number(c.entries_count);
      const contiguous = count > 0 ? first === sealedBefore + 1 && last - first + 1 === count : last === sealedBefore;
      if (!contiguous)
        add('closing_range_mismatch', `it does not start where the closing before ended (${sealedBefore})`);
      if (evidence.chainHashes.get(last) !== c.last_chain_hash) {
        add(
          'closing_seal_mismatch',
          `entries ${first ?? last} to ${last} changed after it was closed: entry ${last} no longer has the chain hash it sealed`,
        );
      }
      const recomputed = evidence.recomputedTotals.get(c.id);
      if (recomputed && canonicalJson(recomputed) !== canonicalJson(c.totals)) {
        add('closing_totals_mismatch', 'its totals are not the sum of the entries it covers');
      }
      const sameYear = before && Number(before.fiscal_year) === Number(c.fiscal_year);
      const yearTotals = addTotals(sameYear ? before!.fiscal_year_totals : zeroTotals(), c.totals);
      const perpetual = addTotals(before ? before.perpetual_totals : zeroTotals(), c.totals);
      if (
        canonicalJson(yearTotals) !== canonicalJson(c.fiscal_year_totals) ||
        canonicalJson(perpetual) !== canonicalJson(c.perpetual_totals)
      ) {
        add('closing_totals_mismatch', 'its fiscal-year or perpetual totals do not add up from the closing before');
      }
      const entry = evidence.closingEntries.get(c.id);
      if (entry?.closing_hash !== c.closing_hash) {
        add('closing_entry_mismatch', 'its closing entry on the chain does not record its closing_hash');
      }
      const anchor = evidence.anchors.get(c.id);
      if (reported && anchor?.status === 'anchored') {
        anchorsChecked++;
        const problem = anchorProblem(anchor, c.closing_hash, evidence.trustedCaPems);
        if (problem) add('anchor_mismatch', `its RFC 3161 anchor does not hold: ${problem}`);
      }
      previousHash = c.closing_hash;
      sealedBefore = last;
      before = c;
    }
  }
  return { broken, closingsChecked, anchorsChecked };
}

function anchorProblem(anchor: AnchorRow, closingHash: string, trusted: readonly string[]): string | null {
  if (!anchor.token || !anchor.ca_certificate) return 'the token is missing';
  if (!trusted.some((pem) => samePem(pem, anchor.ca_certificate!))) return 'its CA is not a trusted authority';
  const check = verifyTimeStampToken(Buffer.from(anchor.token, 'base64'), {
    digestHex: closingHash,
    nonce: anchor.nonce ? BigInt(anchor.nonce) : null,
    trustedCaPems: [anchor.ca_certificate],
  });
  return check.valid ? null : check.reason;
}

/** Whether a PEM bundle holds the given certificate (compared without line breaks). */
const samePem = (bundle: string, pem: string) => bundle.replace(/\s+/g, '').includes(pem.replace(/\s+/g, ''));

function canonicalOrNull(c: ClosingRow): string | null {
  try {
    return canonicalJson(closingHashedFields(c));
  } catch {
    return null;
  }
}
