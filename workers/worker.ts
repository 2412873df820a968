import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { JobResult } from 'pg-boss';
import { wakeAnotherLoop } from '../domain/shared/boss-wakeups.js';
import type { Deps } from '../domain/shared/deps.js';
import { QueueStatistics } from '../domain/shared/queue-statistics.js';
import { ensureQueues, QUEUE_NAMES, type QueueName } from '../domain/shared/queues.js';
import { SCHEDULES, WORKERS, type WorkerSpec } from './queues.js';
import { type JobRef, runJob } from './run-job.js';

/**
 * How often an idle loop looks for jobs. A sent job wakes the loops at its commit (LISTEN/NOTIFY)
 * and a full fetch is followed by the next one at once, so polling only bounds the pickup of what
 * sends no NOTIFY: a retry or a `startAfter` coming due, a job sent while the listener reconnected.
 */
export interface Polling {
  /** Without a listener (it failed, or is reconnecting). */
  seconds: number;
  /** With the listener up. */
  notifySeconds: number;
}
/**
 * 2 s either way: retries and delayed jobs come due without a NOTIFY, and the webhook retry
 * schedule starts at 5 s; a longer backstop would stretch and flatten those first delays.
 */
export const POLLING: Polling = { seconds: 2, notifySeconds: 2 };

/**
 * Registers every queue's handler and the cron schedules on a started pg-boss, and keeps the job
 * tables' planner statistics fresh while it runs.
 */
export async function startWorkers(deps: Deps): Promise<void> {
  await ensureQueues(deps.boss, deps.config.finishedJobsKeepHours);
  for (const queue of QUEUE_NAMES) await workQueue(queue, WORKERS[queue] as WorkerSpec<typeof queue>, deps);
  for (const schedule of SCHEDULES) {
    await deps.boss.schedule(schedule.queue, schedule.cron, {}, { tz: schedule.tz });
  }
  new QueueStatistics(deps.boss, deps.log).start(deps.config.queueAnalyzeSeconds);
}

/** One tenant's cap on a capped queue: the pool less one loop's batch, so another tenant always has a loop. */
export function perTenantCap(workers: number, batch: number): number {
  return Math.max(1, (workers - 1) * batch);
}

/** Works one queue in this process with `spec` (the WORKERS row, or a test's). */
export async function workQueue<Q extends QueueName>(
  queue: Q,
  spec: WorkerSpec<Q>,
  deps: Deps,
  polling: Polling = POLLING,
): Promise<string> {
  const workers = spec.workers ?? deps.config.workerConcurrency;
  return deps.boss.work<JobRef<Q>['data']>(
    queue,
    {
      batchSize: spec.batch,
      localConcurrency: workers,
      ...(spec.capPerTenant ? { groupConcurrency: perTenantCap(workers, spec.batch) } : {}),
      burstWhenBatchFull: true,
      pollingIntervalSeconds: polling.seconds,
      notifyPollingIntervalSeconds: polling.notifySeconds,
      // Each job of a batch is settled on its own: one failure retries that job, not its batch.
      perJobResults: true,
    },
    async (jobs) => {
      if (jobs.length >= spec.batch && workers > 1) wakeAnotherLoop(deps.boss, queue);
      return runBatch(spec, jobs as unknown as JobRef<Q>[], deps);
    },
  );
}

async function runBatch<Q extends QueueName>(spec: WorkerSpec<Q>, jobs: JobRef<Q>[], deps: Deps): Promise<JobResult[]> {
  if (spec.batchHandler && jobs.length > 1) {
    try {
      const outputs = await spec.batchHandler(
        jobs.map((job) => job.data),
        deps,
      );
      return jobs.map((job, i) => ({ id: job.id, status: 'completed', output: outputs[i] as object }));
    } catch (err) {
      // Undone as a whole: each job runs alone below, and only those that fail again are retried.
      deps.log.warn({ err, queue: jobs[0].name, jobs: jobs.length }, 'batch failed; its jobs run one by one');
    }
  }
  const settle = async (job: JobRef<Q>): Promise<JobResult> => {
    try {
      return { id: job.id, status: 'completed', output: await runJob(spec.handler, job, deps) };
    } catch (err) {
      return { id: job.id, status: 'failed', output: err as object };
    }
  };
  if (spec.run === 'parallel') return Promise.all(jobs.map(settle));
  const results: JobResult[] = [];
  for (const [i, job] of jobs.entries()) {
    // A render holds the event loop; between two, the other queues' callbacks get their turn.
    if (i > 0) await yieldToEventLoop();
    results.push(await settle(job));
  }
  return results;
}
