import { type RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { counterLimiter, scaledLimit } from '../platform/index.js';
import { AppError } from '../shared/app-error.js';
import type { Deps } from '../shared/deps.js';

/** Sign-in attempts allowed per e-mail and source IP in an hour without a success, before 429 (user and tenant login). */
export const LOGIN_FAILURES_PER_HOUR = 10;

const limiters = new WeakMap<Deps, RateLimiterPostgres | null>();

/** The failure counter, shared by every web process (same PostgreSQL table as the rate limits). */
function limiterFor(deps: Deps): RateLimiterPostgres | null {
  if (!limiters.has(deps)) {
    const scale = deps.config.rateLimitScale;
    limiters.set(
      deps,
      scale === 0
        ? null
        : counterLimiter(deps.counters, {
            keyPrefix: 'login_failures',
            points: scaledLimit(LOGIN_FAILURES_PER_HOUR, scale),
            duration: 3600,
          }),
    );
  }
  return limiters.get(deps) ?? null;
}

const identityOf = (realm: 'user' | 'tenant', email: string, ip: string | null | undefined) =>
  `${realm}:${email.trim().toLowerCase()}:${ip ?? 'unknown'}`;

/** rate-limiter-flexible rejects a spent `consume` with its state, not an Error. */
const isSpent = (err: unknown): err is RateLimiterRes => err instanceof RateLimiterRes;

/**
 * Brute-force protection for the login routes. Every attempt for one e-mail from one IP is counted
 * before the password is checked, in one atomic upsert (consume, then compare): N parallel guesses
 * cannot all pass a check made before any of them is recorded. A successful sign-in clears the
 * count, so what is limited is the failures in a row. Past the limit every attempt (right or wrong)
 * is refused with 429 until the hour window ends. The counter lives outside the login's
 * transaction, so a failed login (rolled back) still counts.
 */
export const loginThrottle = {
  /** Counts this attempt; 429 when it is one too many. */
  async attempt(deps: Deps, realm: 'user' | 'tenant', email: string, ip: string | null | undefined): Promise<void> {
    const limiter = limiterFor(deps);
    if (!limiter) return;
    try {
      await limiter.consume(identityOf(realm, email, ip), 1);
    } catch (err) {
      if (!isSpent(err)) throw err;
      const retryAfter = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
      throw new AppError('RATE_LIMIT_EXCEEDED', `Too many failed sign-ins. Retry in ${retryAfter} s.`, {
        headers: { 'Retry-After': String(retryAfter) },
        body: { environment: 'production', limit_type: 'per_hour', limit: limiter.points, retry_after: retryAfter },
      });
    }
  },

  /** A successful sign-in: the failures in a row start again from zero. */
  async succeeded(deps: Deps, realm: 'user' | 'tenant', email: string, ip: string | null | undefined): Promise<void> {
    await limiterFor(deps)?.delete(identityOf(realm, email, ip));
  },
};
