import { AppError } from '../shared/app-error.js';
import type { Environment } from '../shared/caller.js';
import type { Deps } from '../shared/deps.js';
import type { RateLimitName, RateWindows } from '../shared/rate-limit-defaults.js';
import { RateCounters } from './rate-counters.js';
import { scaledLimit } from './rate-limits.js';

type WindowName = keyof RateWindows;

const WINDOW_SECONDS: Record<WindowName, number> = { per_minute: 60, per_hour: 3600 };

const countersOf = new WeakMap<Deps, RateCounters>();

function countersFor(deps: Deps): RateCounters {
  let counters = countersOf.get(deps);
  if (!counters) {
    counters = new RateCounters(deps.counters, deps.log);
    countersOf.set(deps, counters);
  }
  return counters;
}

/**
 * A limit an operation counts itself, for a subject only it knows (a partner's publishable key sent
 * in the body): the same PostgreSQL counters, windows, RATE_LIMITS names and overrides (by
 * `identity`, e.g. `key:<id>`) as the route limits, and the specification's 429. The count lives
 * outside the operation's transaction, so a refused or failed call still counts.
 */
export async function countOperationLimit(
  deps: Deps,
  name: RateLimitName,
  identity: string,
  counted: { subject: string; environment: Environment },
): Promise<void> {
  const scale = deps.config.rateLimitScale;
  if (scale === 0) return;
  const windows = deps.config.rateLimitOverrides[identity] ?? deps.config.rateLimits[name];
  const counters = countersFor(deps);
  const limited = (Object.keys(windows) as WindowName[]).map((window) => ({
    window,
    key: `${name}:${window}:${identity}`,
    limit: scaledLimit(windows[window] as number, scale),
  }));
  const states = await Promise.all(limited.map(({ window, key }) => counters.hit(key, WINDOW_SECONDS[window] * 1000)));
  const spent = limited.findIndex(({ limit }, i) => states[i].consumed > limit);
  if (spent === -1) return;
  // A refused call uses up no other window.
  await Promise.all(
    limited.filter(({ limit }, i) => states[i].consumed <= limit).map(({ key }) => counters.refund(key)),
  );
  const { window, limit } = limited[spent];
  const retryAfter = Math.max(1, Math.ceil(states[spent].msBeforeNext / 1000));
  throw new AppError(
    'RATE_LIMIT_EXCEEDED',
    `Too many requests: ${limit} per ${window === 'per_minute' ? 'minute' : 'hour'} for this ${counted.subject}. Retry in ${retryAfter} s.`,
    {
      headers: { 'Retry-After': String(retryAfter) },
      body: { environment: counted.environment, limit_type: window, limit, retry_after: retryAfter },
    },
  );
}
