import type { Knex } from 'knex';
import { canonicalJson, GENESIS_HASH, sha256Hex } from '../ledger/index.js';
import type { Environment } from '../shared/caller.js';
import type { TableRows } from '../shared/insert-together.js';
import { prepared } from '../shared/prepared-statements.js';

export type AuditEntityType = 'invoice' | 'credit_note' | 'signature' | 'fiscal_kill_switch';

export interface AuditFact {
  tenantId: string;
  environment: Environment;
  entityType: AuditEntityType;
  entityId: string;
  /** `invoice.created`, `invoice.submitted`, `invoice.deleted`, ... */
  action: string;
  details: Record<string, unknown>;
  actorIp: string | null;
  /** Who did it: credential type and id, never a secret. */
  actor: Record<string, string | null>;
  now: Date;
  /** The entity was created in this transaction: its trail starts here (saves reading the head). */
  first?: boolean;
}

export interface AuditEntryRow {
  sequence_number: number;
  action: string;
  details: Record<string, unknown>;
  actor_ip: string | null;
  canonical_data: string;
  previous_hash: string;
  entry_hash: string;
  created_at: Date;
}

/** The fields an entry's hash covers, in RFC 8785 form. */
const canonicalOf = (
  entityType: string,
  entityId: string,
  sequence: number,
  e: Omit<AuditEntryRow, 'sequence_number' | 'canonical_data' | 'previous_hash' | 'entry_hash'>,
) =>
  canonicalJson({
    entity_type: entityType,
    entity_id: entityId,
    sequence_number: sequence,
    action: e.action,
    details: e.details,
    actor_ip: e.actor_ip,
    created_at: e.created_at.toISOString(),
  });

const linkHash = (previousHash: string, canonical: string) => sha256Hex(previousHash + sha256Hex(canonical));

/**
 * Appends one entry to an entity's audit chain, in the caller's transaction. The entity's row is
 * locked by the operation that changes it, so appenders of one entity are already serialised; the
 * unique (entity, sequence) key refuses a fork if they were not.
 */
export async function appendAuditEntry(tx: Knex, fact: AuditFact): Promise<void> {
  const head = fact.first
    ? undefined
    : await tx('audit_entries')
        .where({ entity_type: fact.entityType, entity_id: fact.entityId })
        .orderBy('sequence_number', 'desc')
        .first<{ sequence_number: number; entry_hash: string } | undefined>('sequence_number', 'entry_hash');
  await prepared(tx('audit_entries').insert(auditRow(fact, head)), 'insert_audit');
}

/**
 * Each entity's last entry, one backward probe of the (type, id, sequence) key per entity: the
 * cost stays that of the batch however long the trail and whatever the planner's statistics say
 * (a `distinct on` over `entity_id in (...)` was planned, on fresh tables, as a scan of every
 * entry of the type).
 */
const HEADS_OF_ENTITIES = `
  select head.entity_type, head.entity_id, head.sequence_number, head.entry_hash
    from unnest(?::uuid[]) as entity(id)
    cross join lateral (
      select entity_type, entity_id, sequence_number, entry_hash from audit_entries
       where entity_type = ? and entity_id = entity.id
       order by sequence_number desc limit 1
    ) as head`;

/**
 * Appends one entry to each of many entities' chains in two statements (their heads, one insert):
 * a batch of document renderings. One fact per entity; the entities' rows are locked by the caller,
 * as for `appendAuditEntry`.
 */
export async function appendAuditEntries(tx: Knex, facts: readonly AuditFact[]): Promise<void> {
  if (facts.length === 0) return;
  const heads = new Map<string, { sequence_number: number; entry_hash: string }>();
  const rows: { entity_type: string; entity_id: string; sequence_number: number; entry_hash: string }[] = [];
  for (const type of new Set(facts.map((f) => f.entityType))) {
    const ids = facts.filter((f) => f.entityType === type).map((f) => f.entityId);
    rows.push(...(await tx.raw<{ rows: typeof rows }>(HEADS_OF_ENTITIES, [ids, type])).rows);
  }
  for (const row of rows) heads.set(`${row.entity_type}:${row.entity_id}`, row);
  await tx('audit_entries').insert(
    facts.map((fact) => auditRow(fact, heads.get(`${fact.entityType}:${fact.entityId}`))),
  );
}

/** The first entries of entities created in this transaction (a batch of creations), in one insert. */
export async function appendFirstAuditEntries(tx: Knex, facts: readonly AuditFact[]): Promise<void> {
  if (facts.length > 0) await prepared(tx('audit_entries').insert(firstAuditRows(facts).rows), 'insert_audit');
}

/**
 * What `appendFirstAuditEntries` inserts, for a caller that writes it with other rows in one
 * statement (insert-together.ts).
 */
export const firstAuditRows = (facts: readonly AuditFact[]): TableRows => ({
  table: 'audit_entries',
  rows: facts.map((fact) => auditRow(fact, undefined)),
});

function auditRow(fact: AuditFact, head: { sequence_number: number; entry_hash: string } | undefined) {
  const sequence = (head?.sequence_number ?? 0) + 1;
  const previousHash = head?.entry_hash ?? GENESIS_HASH;
  const canonical = canonicalOf(fact.entityType, fact.entityId, sequence, {
    action: fact.action,
    details: fact.details,
    actor_ip: fact.actorIp,
    created_at: fact.now,
  });
  return {
    tenant_id: fact.tenantId,
    environment: fact.environment,
    entity_type: fact.entityType,
    entity_id: fact.entityId,
    sequence_number: sequence,
    action: fact.action,
    details: fact.details,
    actor_ip: fact.actorIp,
    actor: fact.actor,
    canonical_data: canonical,
    previous_hash: previousHash,
    entry_hash: linkHash(previousHash, canonical),
    created_at: fact.now,
  };
}

/** An entity's trail, oldest first. */
export async function readAuditTrail(
  tx: Knex,
  entityType: AuditEntityType,
  entityId: string,
): Promise<AuditEntryRow[]> {
  return tx('audit_entries')
    .where({ entity_type: entityType, entity_id: entityId })
    .orderBy('sequence_number', 'asc')
    .select<AuditEntryRow[]>(
      'sequence_number',
      'action',
      'details',
      'actor_ip',
      'canonical_data',
      'previous_hash',
      'entry_hash',
      'created_at',
    );
}

/**
 * Recomputes the chain from the stored rows: each entry's canonical text must be what its fields
 * say, its hash must follow from the previous one, and the numbers must run 1, 2, 3 without a gap.
 */
export function auditTrailIntact(
  entityType: AuditEntityType,
  entityId: string,
  rows: readonly AuditEntryRow[],
): boolean {
  let previous = GENESIS_HASH;
  for (const [index, row] of rows.entries()) {
    if (row.sequence_number !== index + 1 || row.previous_hash !== previous) return false;
    const expected = canonicalOf(entityType, entityId, row.sequence_number, row);
    if (expected !== row.canonical_data || linkHash(previous, row.canonical_data) !== row.entry_hash) return false;
    previous = row.entry_hash;
  }
  return true;
}

/**
 * A resource's audit trail as the API shows it (schema `InvoiceAuditTrail`): its entries, oldest
 * first, and whether the hash chain, recomputed now, still matches every stored entry.
 */
export async function auditTrailView(tx: Knex, entityType: AuditEntityType, entityId: string) {
  const rows = await readAuditTrail(tx, entityType, entityId);
  return {
    data: rows.map((row) => ({
      action: row.action,
      details: row.details,
      actor_ip: row.actor_ip,
      created_at: row.created_at.toISOString(),
    })),
    integrity_valid: auditTrailIntact(entityType, entityId, rows),
  };
}
