import type { RateLimiterPostgres } from 'rate-limiter-flexible';
import { counterLimiter, scaledLimit } from '../platform/rate-limits.js';
import { AppError } from '../shared/app-error.js';
import type { Deps } from '../shared/deps.js';

/** Failed sign-ins allowed per e-mail and source IP in an hour, before 429 (user and tenant login). */
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

/**
 * Brute-force protection for the login routes: after too many failures for one e-mail from one
 * IP, every attempt (right or wrong) is refused with 429 until the hour window ends. The counter
 * lives outside the login's transaction, so a failed login (rolled back) still counts.
 */
export const loginThrottle = {
  async check(deps: Deps, realm: 'user' | 'tenant', email: string, ip: string | null | undefined): Promise<void> {
    const limiter = limiterFor(deps);
    if (!limiter) return;
    const res = await limiter.get(identityOf(realm, email, ip));
    if (res && res.consumedPoints >= limiter.points) {
      const retryAfter = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
      throw new AppError('RATE_LIMIT_EXCEEDED', `Too many failed sign-ins. Retry in ${retryAfter} s.`, {
        headers: { 'Retry-After': String(retryAfter) },
        body: { environment: 'production', limit_type: 'per_hour', limit: limiter.points, retry_after: retryAfter },
      });
    }
  },

  async recordFailure(
    deps: Deps,
    realm: 'user' | 'tenant',
    email: string,
    ip: string | null | undefined,
  ): Promise<void> {
    const limiter = limiterFor(deps);
    if (!limiter) return;
    await limiter.penalty(identityOf(realm, email, ip), 1);
  },

  async reset(deps: Deps, realm: 'user' | 'tenant', email: string, ip: string | null | undefined): Promise<void> {
    await limiterFor(deps)?.delete(identityOf(realm, email, ip));
  },
};
