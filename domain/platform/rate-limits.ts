import type { Knex } from 'knex';
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import type { Environment } from '../shared/caller.js';
import type { RateLimitName } from '../shared/rate-limit-defaults.js';

/**
 * The limits of the specification's table ("Limits"). `api`: routes taking a user's API key or
 * session, counted per key (per user for a session, per IP without credentials); `tenant`: tenant
 * routes, per tenant and environment; `onboarding`: per tenant; `exchange`: code exchange, per
 * source IP; `mcp`: per key. Beyond the specification: `anonymous`, public routes called without
 * credentials, per source IP; `credentials`, the routes that check a password or prove an e-mail
 * (register, login, password reset, verification, Google callback, tenant register and login), per
 * source IP, shared by all of them.
 */
export type RateLimitClass = 'api' | 'tenant' | 'onboarding' | 'exchange' | 'mcp' | 'anonymous' | 'credentials';

export const limitNameOf = (rateClass: RateLimitClass, environment: Environment): RateLimitName =>
  rateClass === 'api' || rateClass === 'tenant' ? `${rateClass}_${environment}` : rateClass;

/** A configured limit times RATE_LIMIT_SCALE, never below 1 (a scale of 0 turns limiting off instead). */
export const scaledLimit = (limit: number, scale: number): number => Math.max(1, Math.round(limit * scale));

/**
 * A counter in the shared `rate_limits` table (rate-limiter-flexible's PostgreSQL store), on the
 * counters pool. Limiters with the same `keyPrefix` share their counts. It never sweeps the table:
 * the request counters (rate-counters.ts) delete every expired row, theirs and its own.
 */
export function counterLimiter(
  counters: Knex,
  options: { keyPrefix: string; points: number; duration: number },
): RateLimiterPostgres {
  return new RateLimiterPostgres({
    storeClient: counters,
    storeType: 'knex',
    tableName: 'rate_limits',
    tableCreated: true,
    keyPrefix: options.keyPrefix,
    points: options.points,
    duration: options.duration,
    clearExpiredByTimeout: false,
  });
}
