import type { PgBoss } from 'pg-boss';
import { BOSS_SCHEMA } from './boss.js';
import type { Logger } from './logger.js';

/**
 * Keeps the planner's statistics of pg-boss's job tables fresh, from the worker process.
 *
 * pg-boss completes a batch with one UPDATE joining the batch's ids (`json_to_recordset`) to the
 * queue's table. Without statistics PostgreSQL guesses that a queue has almost no active job, so it
 * walks every row the queue holds (its finished jobs stay FINISHED_JOBS_KEEP_HOURS) and compares
 * each with the whole batch: under the pipeline benchmark a completion took 8.5 ms on average and
 * read 1,600 pages, against 0.7 ms through the primary key once the table was analyzed. Its fetch
 * misjudges the same way. A burst fills a queue's table within seconds; autovacuum notices after its
 * naptime (a minute by default), a cluster run with `autovacuum = off` never, and a restored or
 * suspended database starts without any. So the worker checks every QUEUE_ANALYZE_SECONDS and
 * analyzes what autovacuum's own rule calls stale (`queue_analyze_stale`), one process at a time.
 * ANALYZE samples a bounded number of rows and takes no lock that holds up inserts or updates, and
 * it invalidates the cached plans of the tables it analyzes, so the named statements are planned
 * again on the new figures.
 */
export class QueueStatistics {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly boss: PgBoss,
    private readonly log: Logger,
  ) {}

  /** Analyzes the job tables that need it now; returns their names (none while another process does it). */
  async refresh(): Promise<string[]> {
    const result = (await this.boss
      .getDb()
      .executeSql('select name from queue_analyze_stale($1) as name', [BOSS_SCHEMA])) as { rows: { name: string }[] };
    return result.rows.map((row) => row.name);
  }

  /**
   * Checks at once, then every `seconds` until pg-boss stops; 0 never checks. The first pass is not
   * waited for: a worker started on a backlog queued while none ran (a deploy, a scale-up) works it
   * on fresh statistics from its first batches instead of after the first interval.
   */
  start(seconds: number): void {
    if (seconds <= 0 || this.timer) return;
    const pass = () => {
      this.running = this.refresh().then(
        (tables) => {
          if (tables.length > 0) this.log.debug({ tables }, 'queue statistics refreshed');
        },
        (err: Error & { code?: string }) =>
          this.log.warn({ err: { message: err.message, code: err.code } }, 'queue statistics not refreshed'),
      );
    };
    this.timer = setInterval(pass, seconds * 1000).unref();
    this.boss.once('stopped', () => this.stop());
    pass();
  }

  /** Stops checking; a pass under way finishes. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
