import type { Deps } from '../domain/shared/deps.js';
import { ensureQueues, QUEUE_NAMES, type QueueName } from '../domain/shared/queues.js';
import { SCHEDULES, WORKERS } from './queues.js';
import { type JobRef, runJob } from './run-job.js';

/** Registers every queue's handler and the cron schedules on a started pg-boss. */
export async function startWorkers(deps: Deps): Promise<void> {
  await ensureQueues(deps.boss);
  for (const queue of QUEUE_NAMES) await work(queue, deps);
  for (const schedule of SCHEDULES) {
    await deps.boss.schedule(schedule.queue, schedule.cron, {}, { tz: schedule.tz });
  }
}

async function work<Q extends QueueName>(queue: Q, deps: Deps): Promise<void> {
  const spec = WORKERS[queue];
  const concurrency = spec.concurrency ?? deps.config.workerConcurrency;
  await deps.boss.work<JobRef<Q>['data']>(
    queue,
    {
      batchSize: 1,
      localConcurrency: concurrency,
      ...(spec.perTenant ? { localGroupConcurrency: spec.perTenant } : {}),
    },
    async ([job]) => runJob(spec.handler, job as unknown as JobRef<Q>, deps),
  );
}
