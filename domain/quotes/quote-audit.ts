import type { Knex } from 'knex';
import { canonicalJson, GENESIS_HASH, sha256Hex } from '../ledger/index.js';

/** One entry of a quote's log, as stored. */
export interface QuoteAuditRow {
  id: string;
  tenant_id: string;
  quote_id: string;
  sequence_number: number;
  action: string;
  details: Record<string, unknown>;
  actor: Record<string, string | null>;
  actor_ip: string | null;
  canonical_data: string;
  previous_chain_hash: string;
  chain_hash: string;
  created_at: Date;
}

export interface QuoteAuditFact {
  tenantId: string;
  quoteId: string;
  action: string;
  details: Record<string, unknown>;
  actor: Record<string, string | null>;
  actorIp: string | null;
  now: Date;
}

/** The fields an entry's hash covers, in RFC 8785 form. */
const canonicalOf = (quoteId: string, sequence: number, f: Omit<QuoteAuditFact, 'tenantId' | 'quoteId'>) =>
  canonicalJson({
    quote_id: quoteId,
    sequence_number: sequence,
    action: f.action,
    details: f.details,
    actor: f.actor,
    actor_ip: f.actorIp,
    created_at: f.now.toISOString(),
  });

/** `chainHash` = SHA-256 hex of `previousChainHash` + SHA-256 hex of the canonical entry. */
export const chainHashOf = (previous: string, canonical: string): string => sha256Hex(previous + sha256Hex(canonical));

/**
 * Appends one entry to a quote's chain in the caller's transaction. The quote's row is locked by
 * the operation that changes it, so appenders are serialised; the unique (quote, sequence) key
 * refuses a fork if they were not.
 */
export async function appendQuoteAudit(tx: Knex, fact: QuoteAuditFact): Promise<void> {
  const head = await tx('quote_audit_entries')
    .where({ quote_id: fact.quoteId })
    .orderBy('sequence_number', 'desc')
    .first<{ sequence_number: number; chain_hash: string } | undefined>('sequence_number', 'chain_hash');
  const sequence = (head?.sequence_number ?? 0) + 1;
  const previous = head?.chain_hash ?? GENESIS_HASH;
  const canonical = canonicalOf(fact.quoteId, sequence, fact);
  await tx('quote_audit_entries').insert({
    tenant_id: fact.tenantId,
    quote_id: fact.quoteId,
    sequence_number: sequence,
    action: fact.action,
    details: fact.details,
    actor: fact.actor,
    actor_ip: fact.actorIp,
    canonical_data: canonical,
    previous_chain_hash: previous,
    chain_hash: chainHashOf(previous, canonical),
    created_at: fact.now,
  });
}

export const readQuoteAudit = (tx: Knex, quoteId: string): Promise<QuoteAuditRow[]> =>
  tx('quote_audit_entries').where({ quote_id: quoteId }).orderBy('sequence_number').select<QuoteAuditRow[]>('*');

/**
 * Whether a chain holds: numbers from 1 without gaps, each entry linked to the one before, each
 * stored canonical form the one its fields give, each hash recomputed.
 */
export function quoteAuditIntact(entries: readonly QuoteAuditRow[]): boolean {
  let previous = GENESIS_HASH;
  for (const [i, e] of entries.entries()) {
    if (e.sequence_number !== i + 1 || e.previous_chain_hash !== previous) return false;
    const canonical = canonicalOf(e.quote_id, e.sequence_number, {
      action: e.action,
      details: e.details,
      actor: e.actor,
      actorIp: e.actor_ip,
      now: new Date(e.created_at),
    });
    if (canonical !== e.canonical_data || chainHashOf(previous, canonical) !== e.chain_hash) return false;
    previous = e.chain_hash;
  }
  return true;
}
