import type { Knex } from 'knex';
import { type BatchLimits, MicroBatcher } from '../shared/batch-queue.js';
import type { Logger } from '../shared/logger.js';

/** One request counted in one window: `key` is `<limit>:<window>:<identity>`. */
export interface CounterHit {
  key: string;
  durationMs: number;
}

export interface CounterState {
  /** Requests counted in the window so far, this one included. */
  consumed: number;
  /** Milliseconds until the window ends and the count starts again. */
  msBeforeNext: number;
}

/** Counts are kept an hour after their window ends, then swept (every 5 minutes at most). */
const SWEEP_EVERY_MS = 5 * 60_000;
const KEEP_EXPIRED_MS = 3_600_000;

const LIMITS: BatchLimits = { maxInFlight: 2, maxBatch: 500 };

/**
 * Fixed-window request counters in the shared `rate_limits` table (the layout of
 * rate-limiter-flexible's PostgreSQL store, which the login throttle still uses), so every web
 * process counts against one budget. Concurrent hits are written together: one upsert adds each
 * key's hits and returns its new count, and each hit gets its own place in that count, exactly
 * as if it had been written alone. Keys are written in sorted order, so two processes' batches
 * cannot deadlock.
 */
export class RateCounters {
  private readonly batcher: MicroBatcher<CounterHit, CounterState>;
  private lastSweep = Date.now();

  constructor(
    private readonly counters: Knex,
    private readonly log: Logger,
  ) {
    this.batcher = new MicroBatcher((hits) => this.count(hits), LIMITS);
  }

  hit(key: string, durationMs: number): Promise<CounterState> {
    return this.batcher.load({ key, durationMs });
  }

  /** Takes back one hit of a window that is still running (a request refused by another window). */
  async refund(key: string): Promise<void> {
    await this.counters.raw('update rate_limits set points = points - 1 where key = ? and expire > ? and points > 0', [
      key,
      Date.now(),
    ]);
  }

  private async count(hits: CounterHit[]): Promise<CounterState[]> {
    const now = Date.now();
    const perKey = new Map<string, { hits: number; durationMs: number }>();
    for (const hit of hits) {
      const entry = perKey.get(hit.key) ?? { hits: 0, durationMs: hit.durationMs };
      entry.hits++;
      perKey.set(hit.key, entry);
    }
    const keys = [...perKey.keys()];
    const entries = [...perKey.values()];
    const { rows } = await this.counters.raw<{ rows: { key: string; points: number; expire: string | null }[] }>(
      `insert into rate_limits as r (key, points, expire)
       select q.key, q.points, ?::bigint + q.duration_ms
       from unnest(?::text[], ?::int[], ?::bigint[]) as q(key, points, duration_ms)
       order by q.key
       on conflict (key) do update set
         points = case when r.expire <= ? then excluded.points else r.points + excluded.points end,
         expire = case when r.expire <= ? then excluded.expire else r.expire end
       returning r.key, r.points, r.expire`,
      [now, keys, entries.map((entry) => entry.hits), entries.map((entry) => entry.durationMs), now, now],
    );
    this.sweep(now);
    const totals = new Map(rows.map((row) => [row.key, row]));
    const seen = new Map<string, number>();
    return hits.map((hit) => {
      const total = totals.get(hit.key);
      if (!total) throw new Error(`rate counter ${hit.key} was not written`);
      const place = (seen.get(hit.key) ?? 0) + 1;
      seen.set(hit.key, place);
      const batchHits = perKey.get(hit.key)?.hits ?? 1;
      return {
        consumed: total.points - batchHits + place,
        // Two batches in flight may reach the table out of order: a window another batch opened a
        // moment later than `now` still ends at most one window's length from now.
        msBeforeNext: total.expire === null ? -1 : Math.min(Number(total.expire) - now, hit.durationMs),
      };
    });
  }

  /** Drops counters whose window ended over an hour ago; never delays a request. */
  private sweep(now: number): void {
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    this.counters
      .raw('delete from rate_limits where expire < ?', [now - KEEP_EXPIRED_MS])
      .catch((err: unknown) => this.log.warn({ err }, 'rate-limit sweep failed'));
  }
}
