import type pg from 'pg';
import { BOSS_SCHEMA } from '../domain/shared/boss.js';

/** The queues an invoice creation feeds: its documents, and its `invoice.created` event to the webhook. */
export const PIPELINE_QUEUES = ['generate-invoice-documents', 'dispatch-event', 'deliver-webhook'] as const;

export interface QueuePickup {
  jobs: number;
  started: number;
  completed: number;
  /** Jobs that needed a retry: left out of the latencies, since their started_on is the retry's. */
  retried: number;
  /**
   * started_on − created_on of first attempts, in milliseconds. A job not started yet counts with its
   * wait so far (until this query), so with `jobs > started` the figures are lower bounds.
   */
  p50_ms: number | null;
  p99_ms: number | null;
  max_ms: number | null;
}

export interface QueueWindow {
  tenantIds: string[];
  /** The database's clock when the phase began: jobs created since then are the phase's. */
  since: Date;
}

const round = (value: number | null): number | null => (value === null ? null : Math.round(value));

/**
 * Pickup latency per queue (pg-boss `started_on − created_on`) of the jobs of `window`'s tenants
 * created since its start. `created_on` is the creating transaction's start, so it also holds the
 * rest of that transaction (a few milliseconds). Leaving out the jobs a crawling queue never reached
 * would report only the lucky ones: they count with their wait so far instead.
 */
export async function queuePickup(pool: pg.Pool, window: QueueWindow): Promise<Record<string, QueuePickup>> {
  const { rows } = await pool.query<{
    name: string;
    jobs: number;
    started: number;
    completed: number;
    retried: number;
    p50: number | null;
    p99: number | null;
    max: number | null;
  }>(
    `with j as (
       select name, state, retry_count, started_on,
              extract(epoch from coalesce(started_on, clock_timestamp()) - created_on) * 1000 as pickup
         from ${BOSS_SCHEMA}.job
        where name = any($1) and data->>'tenantId' = any($2) and created_on >= $3
     )
     select name, count(*)::int as jobs, count(started_on)::int as started,
            count(*) filter (where state = 'completed')::int as completed,
            count(*) filter (where retry_count > 0)::int as retried,
            percentile_cont(0.5) within group (order by pickup) filter (where retry_count = 0) as p50,
            percentile_cont(0.99) within group (order by pickup) filter (where retry_count = 0) as p99,
            max(pickup) filter (where retry_count = 0) as max
       from j group by name`,
    [PIPELINE_QUEUES, window.tenantIds, window.since],
  );
  const report: Record<string, QueuePickup> = {};
  for (const queue of PIPELINE_QUEUES) {
    const row = rows.find((r) => r.name === queue);
    report[queue] = {
      jobs: row?.jobs ?? 0,
      started: row?.started ?? 0,
      completed: row?.completed ?? 0,
      retried: row?.retried ?? 0,
      p50_ms: round(row?.p50 ?? null),
      p99_ms: round(row?.p99 ?? null),
      max_ms: round(row?.max ?? null),
    };
  }
  return report;
}

/**
 * Documents per second through the queue: completed document jobs of the window over the span from
 * the first start to the last completion (the time the queue was actually working them).
 */
export async function documentsPerSecond(pool: pg.Pool, window: QueueWindow): Promise<number> {
  const { rows } = await pool.query<{ completed: number; span: number | null }>(
    `select count(*)::int as completed, extract(epoch from max(completed_on) - min(started_on)) as span
       from ${BOSS_SCHEMA}.job
      where name = 'generate-invoice-documents' and state = 'completed'
        and data->>'tenantId' = any($1) and created_on >= $2`,
    [window.tenantIds, window.since],
  );
  const { completed, span } = rows[0];
  if (completed === 0 || !span) return 0;
  return Math.round((completed / span) * 10) / 10;
}

/**
 * The same after the first `skip` completions: from the `skip`-th completion to the last, the
 * documents completed in between. What a worker does once its JIT is warm, as the in-process rate
 * is measured after a warm-up; 0 when fewer than `skip` + 1 documents were completed.
 */
export async function documentsPerSecondAfter(pool: pg.Pool, window: QueueWindow, skip: number): Promise<number> {
  if (skip === 0) return documentsPerSecond(pool, window);
  const { rows } = await pool.query<{ completed: number; span: number | null }>(
    `with done as (
       select completed_on, row_number() over (order by completed_on) as n
         from ${BOSS_SCHEMA}.job
        where name = 'generate-invoice-documents' and state = 'completed'
          and data->>'tenantId' = any($1) and created_on >= $2
     )
     select count(*) filter (where n > $3)::int as completed,
            extract(epoch from max(completed_on) - max(completed_on) filter (where n = $3)) as span
       from done`,
    [window.tenantIds, window.since, skip],
  );
  const { completed, span } = rows[0];
  if (completed === 0 || !span) return 0;
  return Math.round((completed / span) * 10) / 10;
}

/** The database's clock, so that windows compare with pg-boss's timestamps and not the bench's. */
export async function databaseNow(pool: pg.Pool): Promise<Date> {
  return (await pool.query<{ now: Date }>('select clock_timestamp() as now')).rows[0].now;
}

/**
 * Drops what a phase left queued or running, so that the next phase starts on an empty queue (the
 * bench database is its own; a job stopped half-way is simply not worked).
 */
export async function clearPipelineQueues(pool: pg.Pool): Promise<number> {
  const { rowCount } = await pool.query(
    `delete from ${BOSS_SCHEMA}.job where name = any($1) and state in ('created', 'retry', 'active')`,
    [PIPELINE_QUEUES],
  );
  return rowCount ?? 0;
}
