/**
 * Job priorities that share the worker pool between tenants without capping any of them.
 *
 * Every job sent for a tenant (its pg-boss `group`) gets a priority that falls as that tenant's
 * recent sends on the queue rise: 0 for the first FAIR_SHARE_STEP jobs, -1 for the next step, and
 * so on, the count decaying by half every FAIR_SHARE_HALF_LIFE_MS. Workers fetch by priority, then
 * age. A tenant alone has the whole pool, however large its burst (nothing is capped); a tenant that
 * sends a few jobs while another's burst is queued gets priority 0 and is fetched next, instead of
 * waiting behind the burst. Within a burst the priorities only fall, so a tenant's jobs still start
 * in the order they were sent until the burst has died down.
 *
 * The counts live in each process that sends jobs (web and worker processes), so with several web
 * processes each sees its share of a tenant's burst: the ordering between tenants holds, the levels
 * are coarser. Nothing is stored: a restarted process starts every tenant at 0.
 */
export const FAIR_SHARE_STEP = 10;
export const FAIR_SHARE_HALF_LIFE_MS = 2_000;
/** The lowest priority given (pg-boss priorities are integers; far below any real burst). */
export const FAIR_SHARE_FLOOR = -100_000;
/**
 * Above every fair-share priority: a job someone is waiting on now (a download of files still
 * pending), fetched before every tenant's queued jobs.
 */
export const WAITED_ON_PRIORITY = 1;

interface Recent {
  count: number;
  at: number;
}

export class FairShare {
  private readonly recent = new Map<string, Recent>();
  private sends = 0;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** The priority of the next job of `group` on `queue`, counting that job. */
  next(queue: string, group: string): number {
    const key = `${queue}\u0000${group}`;
    const now = this.now();
    const count = this.decayed(this.recent.get(key), now);
    this.recent.set(key, { count: count + 1, at: now });
    if (++this.sends % 1000 === 0) this.forgetQuiet(now);
    const level = Math.floor(count / FAIR_SHARE_STEP);
    return level === 0 ? 0 : Math.max(FAIR_SHARE_FLOOR, -level);
  }

  private decayed(entry: Recent | undefined, now: number): number {
    return entry ? entry.count * 0.5 ** ((now - entry.at) / FAIR_SHARE_HALF_LIFE_MS) : 0;
  }

  /** Drops the tenants whose count has decayed to nothing, so the map holds only recent senders. */
  private forgetQuiet(now: number): void {
    for (const [key, entry] of this.recent) if (this.decayed(entry, now) < 0.5) this.recent.delete(key);
  }
}
