import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import {
  type ClaimResult,
  claimIdempotencyKey,
  completeIdempotencyKey,
  contextOf,
  idempotencyLeasesOf,
  releaseIdempotencyKey,
  type StoredResponse,
} from '../../domain/platform/index.js';
import { AppError } from '../../domain/shared/app-error.js';
import type { Caller } from '../../domain/shared/caller.js';
import type { Deps } from '../../domain/shared/deps.js';
import { open, seal } from '../../domain/shared/secret-box.js';
import { enterTenant, inTenantContext } from '../../domain/shared/tenant-context.js';

const MAX_KEY_LENGTH = 255;

/**
 * Responses worth replaying: successes and business refusals. Not stored (spec/DECISIONS.md and
 * Stripe's rule): validation failures, refused credentials, rate limits, and server errors, whose
 * transaction rolled back so a retry may run for real.
 */
export function isReplayable(status: number, body: unknown): boolean {
  if (status >= 500 || [400, 401, 403, 413, 415, 429].includes(status)) return false;
  return !(status === 422 && typeof body === 'object' && body !== null && 'errors' in body);
}

export interface IdempotencyClaim {
  id: string;
  /** Records the response in the operation's transaction (`tx`), or in one of its own without it. */
  complete(tx: Deps['db'] | null, response: StoredResponse): Promise<void>;
  release(): Promise<void>;
}

/**
 * Reads `Idempotency-Key` on a POST and claims it for this request. Returns null when there is no
 * key; answers the request itself (replay) and returns 'answered'; throws on mismatch or in-use.
 */
export async function claimFor(
  ctx: Context,
  caller: Caller,
  input: Record<string, unknown>,
  deps: Deps,
): Promise<IdempotencyClaim | 'answered' | null> {
  const key = ctx.get('Idempotency-Key');
  if (ctx.method !== 'POST' || !key) return null;
  if (key.length > MAX_KEY_LENGTH) {
    throw AppError.validation({ 'Idempotency-Key': [`must be at most ${MAX_KEY_LENGTH} characters`] });
  }
  const scope = replayScope(caller, ctx.ip);
  // Stored responses may hold a secret shown once (a new key, a token): they are kept sealed.
  const appKey = deps.config.appKey!;
  const context = `${scope} ${ctx.method} ${ctx.path} ${key}`;
  const sealed = (response: StoredResponse): StoredResponse => ({
    ...response,
    body: seal(appKey, response.body, context),
  });
  const result: ClaimResult = await claimIdempotencyKey(
    deps.db,
    { scope, tenantId: caller.tenantId, method: ctx.method, path: ctx.path, key },
    requestHash(input),
    deps.clock.now(),
  );
  switch (result.outcome) {
    case 'mismatch':
      throw new AppError(
        'IDEMPOTENCY_KEY_MISMATCH',
        'This Idempotency-Key was already used with a different request body. Use a new key for a new request.',
      );
    case 'in_use':
      throw new AppError(
        'IDEMPOTENCY_KEY_IN_USE',
        'A request with this Idempotency-Key is still being processed. Retry after it completes.',
        { headers: { 'Retry-After': '1' } },
      );
    case 'replay':
      ctx.status = result.response.status;
      ctx.type = result.response.contentType;
      ctx.set('Idempotent-Replayed', 'true');
      ctx.body = open(appKey, result.response.body, context);
      return 'answered';
    case 'claimed': {
      // Kept alive while this request runs, however long: only a holder that is gone loses its key.
      const leases = idempotencyLeasesOf(deps);
      leases.hold(result.id, caller.tenantId);
      const ending = <T>(work: Promise<T>) => work.finally(() => leases.drop(result.id));
      return {
        id: result.id,
        complete: async (tx, response) =>
          ending(
            tx
              ? // The operation may have moved into another tenant's rows (register); the key is the caller's.
                enterTenant(tx, caller.tenantId ?? '').then(() =>
                  completeIdempotencyKey(tx, result.id, sealed(response)),
                )
              : inTenantContext(deps.db, contextOf(caller.tenantId), (own) =>
                  completeIdempotencyKey(own, result.id, sealed(response)),
                ),
          ),
        release: () => ending(releaseIdempotencyKey(deps.db, caller.tenantId, result.id)),
      };
    }
  }
}

/**
 * Whose stored responses a request may replay: the credential's owner and environment, narrowed to
 * what the credential reaches (its sub-tenant, its company, its scopes). A narrower credential of
 * the same owner never replays a wider one's response: a key shown once, another sub-tenant's data.
 */
function replayScope(caller: Caller, ip: string): string {
  if (!caller.tenantId) return `ip:${ip}`;
  const reach = [
    caller.subTenantId ? `sub:${caller.subTenantId}` : null,
    caller.companyId ? `company:${caller.companyId}` : null,
    `scopes:${[...caller.scopes].sort().join(',')}`,
  ].filter(Boolean);
  return `tenant:${caller.tenantId}:${caller.environment ?? '-'}:${reach.join(':')}`;
}

/** The request's parameters, keys sorted, so the same request always hashes the same. */
function requestHash(input: Record<string, unknown>): string {
  return createHash('sha256').update(canonical(input)).digest('hex');
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
