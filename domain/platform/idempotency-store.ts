import type { Knex } from 'knex';
import { inTenantContext } from '../shared/tenant-context.js';

/** Keys are kept 24 hours (spec/DECISIONS.md, "Idempotency"). */
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
/**
 * How long a claim lasts without news from its holder: the holder renews it while it runs
 * (idempotency-leases.ts), so another request takes the key over only once the holder is gone.
 */
export const IDEMPOTENCY_LOCK_MS = 2 * 60 * 1000;

export interface IdempotencyScope {
  scope: string;
  tenantId: string | null;
  method: string;
  path: string;
  key: string;
}

export interface IdempotencyRecord {
  id: string;
  request_hash: string;
  status: 'in_progress' | 'completed';
  response_status: number | null;
  response_body: string | null;
  response_content_type: string | null;
  locked_until: Date | null;
  expires_at: Date;
}

export interface StoredResponse {
  status: number;
  body: string;
  contentType: string;
}

export type ClaimResult =
  | { outcome: 'claimed'; id: string }
  | { outcome: 'replay'; response: StoredResponse }
  | { outcome: 'mismatch' }
  | { outcome: 'in_use' };

/**
 * Claims a key for this request in its own short transaction: a new or expired key (or one whose
 * holder died) is claimed; a completed one is replayed when the request is the same.
 */
export async function claimIdempotencyKey(
  db: Knex,
  scope: IdempotencyScope,
  requestHash: string,
  now: Date,
): Promise<ClaimResult> {
  return inTenantContext(db, contextOf(scope.tenantId), async (tx) => {
    const inserted = await tx.raw<{ rows: { id: string }[] }>(
      `insert into idempotency_keys (scope, tenant_id, method, path, key, request_hash, status, locked_until, created_at, expires_at)
       values (?, ?, ?, ?, ?, ?, 'in_progress', ?, ?, ?)
       on conflict (scope, method, path, key) do nothing
       returning id`,
      [
        scope.scope,
        scope.tenantId,
        scope.method,
        scope.path,
        scope.key,
        requestHash,
        new Date(now.getTime() + IDEMPOTENCY_LOCK_MS),
        now,
        new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
      ],
    );
    if (inserted.rows.length) return { outcome: 'claimed', id: inserted.rows[0].id };

    const existing = await tx('idempotency_keys')
      .where({ scope: scope.scope, method: scope.method, path: scope.path, key: scope.key })
      .forUpdate()
      .first<IdempotencyRecord>();
    if (!existing) return { outcome: 'in_use' }; // deleted between the two statements: let the client retry
    const expired = existing.expires_at <= now;
    const abandoned = existing.status === 'in_progress' && (existing.locked_until ?? now) <= now;
    if (expired || abandoned) {
      await tx('idempotency_keys')
        .where({ id: existing.id })
        .update({
          request_hash: requestHash,
          status: 'in_progress',
          response_status: null,
          response_body: null,
          response_content_type: null,
          locked_until: new Date(now.getTime() + IDEMPOTENCY_LOCK_MS),
          created_at: now,
          expires_at: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
        });
      return { outcome: 'claimed', id: existing.id };
    }
    if (existing.request_hash !== requestHash) return { outcome: 'mismatch' };
    if (existing.status === 'in_progress') return { outcome: 'in_use' };
    return {
      outcome: 'replay',
      response: {
        status: existing.response_status ?? 200,
        body: existing.response_body ?? '',
        contentType: existing.response_content_type ?? 'application/json; charset=utf-8',
      },
    };
  });
}

/**
 * Records the response: inside the operation's transaction so both commit together, or (for a
 * refusal, whose transaction rolled back) in a transaction of its own.
 */
export async function completeIdempotencyKey(db: Knex, id: string, response: StoredResponse): Promise<void> {
  await db('idempotency_keys').where({ id }).update({
    status: 'completed',
    response_status: response.status,
    response_body: response.body,
    response_content_type: response.contentType,
    locked_until: null,
  });
}

/**
 * Renews claims still running: their lock moves to `now + IDEMPOTENCY_LOCK_MS`. A claim whose row
 * is locked is being completed by its own request right now, and is skipped rather than waited for.
 */
export async function renewIdempotencyClaims(
  db: Knex,
  tenantId: string | null,
  ids: readonly string[],
  now: Date,
): Promise<number> {
  return inTenantContext(db, contextOf(tenantId), async (tx) => {
    const renewed = await tx.raw<{ rowCount: number }>(
      `update idempotency_keys set locked_until = ?
        where id in (select id from idempotency_keys
                      where id = any(?::uuid[]) and status = 'in_progress'
                      for update skip locked)`,
      [new Date(now.getTime() + IDEMPOTENCY_LOCK_MS), [...ids]],
    );
    return renewed.rowCount;
  });
}

/** Forgets a claim whose request produced nothing worth replaying (validation failure, auth, 5xx). */
export async function releaseIdempotencyKey(db: Knex, tenantId: string | null, id: string): Promise<void> {
  await inTenantContext(db, contextOf(tenantId), (tx) =>
    tx('idempotency_keys').where({ id, status: 'in_progress' }).delete(),
  );
}

/** Keys of a tenant live in its rows; keys of anonymous callers (scoped by IP) have no tenant. */
export const contextOf = (tenantId: string | null) =>
  ({ tenantId, environment: null, kind: tenantId ? 'tenant' : 'anonymous' }) as const;

export async function purgeExpiredIdempotencyKeys(db: Knex, now: Date): Promise<number> {
  return db('idempotency_keys').where('expires_at', '<=', now).delete();
}
