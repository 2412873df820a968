import type { Context } from 'koa';
import { limitNameOf, RateCounters, type RateLimitClass, scaledLimit } from '../../domain/platform/index.js';
import { AppError } from '../../domain/shared/app-error.js';
import type { Caller, Environment } from '../../domain/shared/caller.js';
import type { Deps } from '../../domain/shared/deps.js';
import type { RateLimitName, RateWindows } from '../../domain/shared/rate-limit-defaults.js';
import type { RouteSpec } from './route-spec.js';

type WindowName = keyof RateWindows;

/** What the 429 message says was counted, where it is not the credential. */
const SUBJECT: Partial<Record<RateLimitClass, string>> = {
  tenant: 'tenant',
  anonymous: 'address',
  credentials: 'address on the sign-in routes',
};

const WINDOW_SECONDS: Record<WindowName, number> = { per_minute: 60, per_hour: 3600 };

/**
 * The limit a call counts against: the route's own (code exchange, MCP, onboarding, credentials),
 * else the caller's. A tenant's keys and tokens share the tenant budget on every route they call; a
 * user's keys and sessions the API-key budget; publishable keys the onboarding budget; anonymous
 * callers the per-IP anonymous budget. Only routes marked `none` are not counted.
 */
export function rateLimitClassOf(route: RouteSpec, caller: Caller): RateLimitClass | null {
  if (route.rateLimit) return route.rateLimit === 'none' ? null : route.rateLimit;
  switch (caller.kind) {
    case 'tenant':
      return 'tenant';
    case 'user':
      return 'api';
    case 'publishable':
      return 'onboarding';
    default:
      return 'anonymous';
  }
}

/** Who a request is counted as: the key, else the user or tenant, else the source IP. */
function identitiesOf(rateClass: RateLimitClass, caller: Caller): { counted: string; lookup: string[] } {
  const ip = `ip:${caller.ip ?? 'unknown'}`;
  const key = caller.credential?.type.endsWith('_key') ? `key:${caller.credential.id}` : null;
  const user = caller.userId ? `user:${caller.userId}` : null;
  const tenant = caller.tenantId ? `tenant:${caller.tenantId}` : null;
  const lookup = [key, user, tenant, ip].filter((id): id is string => id !== null);
  switch (rateClass) {
    case 'exchange':
    case 'anonymous':
    case 'credentials':
      return { counted: ip, lookup: [ip] };
    case 'tenant':
    case 'onboarding':
      return { counted: tenant ? `${tenant}:${caller.environment ?? '-'}` : ip, lookup };
    default:
      return { counted: key ?? user ?? tenant ?? ip, lookup };
  }
}

interface Verdict {
  window: WindowName;
  limit: number;
  remaining: number;
  resetMs: number;
}

/**
 * Rate limits counted in PostgreSQL (domain/platform/rate-counters.ts), so every web process
 * shares one budget per identity. Sets the four X-RateLimit-* headers; throws 429 RATE_LIMIT_EXCEEDED
 * with Retry-After when a window is spent.
 */
export class RateLimits {
  private readonly counters: RateCounters;

  constructor(private readonly deps: Deps) {
    this.counters = new RateCounters(deps.counters, deps.log);
  }

  get enabled(): boolean {
    return this.deps.config.rateLimitScale > 0;
  }

  async enforce(ctx: Context, route: RouteSpec, caller: Caller): Promise<void> {
    const rateClass = rateLimitClassOf(route, caller);
    if (!rateClass || !this.enabled) return;
    const environment: Environment = caller.environment ?? 'production';
    const name = limitNameOf(rateClass, environment);
    const { counted, lookup } = identitiesOf(rateClass, caller);
    const windows = this.windowsFor(name, lookup);

    const limited = (Object.keys(windows) as WindowName[]).map((window) => ({
      window,
      limit: scaledLimit(windows[window] as number, this.deps.config.rateLimitScale),
    }));
    // Every window of the request is counted, in one batched statement with the other requests'.
    const states = await Promise.all(
      limited.map(({ window }) => this.counters.hit(`${name}:${window}:${counted}`, WINDOW_SECONDS[window] * 1000)),
    );
    const verdicts: Verdict[] = limited.map(({ window, limit }, i) => ({
      window,
      limit,
      remaining: limit - states[i].consumed,
      resetMs: states[i].msBeforeNext,
    }));
    const spent = verdicts.find((verdict) => verdict.remaining < 0);
    if (spent) {
      // A refused request uses up no other window: a client pacing itself after a minute's 429 keeps its hour.
      await Promise.all(
        verdicts
          .filter((verdict) => verdict.remaining >= 0)
          .map(({ window }) => this.counters.refund(`${name}:${window}:${counted}`)),
      );
      const { window, limit, resetMs } = spent;
      const retryAfter = Math.max(1, Math.ceil(resetMs / 1000));
      const headers = {
        ...rateHeaders({ window, limit, remaining: 0, resetMs }, environment, Date.now()),
        'Retry-After': String(retryAfter),
      };
      throw new AppError(
        'RATE_LIMIT_EXCEEDED',
        `Too many requests: ${limit} per ${window === 'per_minute' ? 'minute' : 'hour'} for this ${SUBJECT[rateClass] ?? 'credential'}. Retry in ${retryAfter} s.`,
        {
          headers,
          body: { environment, limit_type: window, limit, retry_after: retryAfter },
        },
      );
    }
    // The tightest window is the one a client must pace itself by.
    const tightest = verdicts.reduce((a, b) => (b.remaining < a.remaining ? b : a));
    ctx.set(rateHeaders(tightest, environment, Date.now()));
  }

  /** The first identity with an override wins (key, user, tenant, IP), else the configured limit. */
  private windowsFor(name: RateLimitName, identities: string[]): RateWindows {
    const overrides = this.deps.config.rateLimitOverrides;
    for (const identity of identities) {
      if (overrides[identity]) return overrides[identity];
    }
    return this.deps.config.rateLimits[name];
  }
}

function rateHeaders(verdict: Verdict, environment: Environment, now: number): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(verdict.limit),
    'X-RateLimit-Remaining': String(Math.max(0, verdict.remaining)),
    'X-RateLimit-Reset': String(Math.ceil((now + verdict.resetMs) / 1000)),
    'X-RateLimit-Environment': environment,
  };
}
