import { isAppError } from '../domain/shared/app-error.js';
import type { Deps } from '../domain/shared/deps.js';
import { errorBody } from '../domain/shared/error-body.js';
import type { JobPayloads, QueueName } from '../domain/shared/queues.js';
import type { JobHandler } from './job-handler.js';

export interface JobRef<Q extends QueueName> {
  id: string;
  name: Q;
  data: JobPayloads[Q];
  retryCount: number;
}

/**
 * Runs one job: a non-retryable AppError is recorded as the job's output (`{stopped: true}` and the
 * error shape of domain/shared/error-body.ts, as an HTTP client would read it) and the job stops; any
 * other error is thrown, and pg-boss retries it with backoff, then moves it to the dead-letter queue.
 */
export async function runJob<Q extends QueueName>(
  handler: JobHandler<Q>,
  job: JobRef<Q>,
  deps: Deps,
): Promise<unknown> {
  const log = deps.log.child({ queue: job.name, job_id: job.id, attempt: job.retryCount + 1 });
  try {
    const output = await handler(job.data, deps);
    log.debug('job done');
    return output;
  } catch (err) {
    if (isAppError(err) && err.extra.retryable === false) {
      log.warn({ code: err.code, message: err.message }, 'job stopped: not retryable');
      return { stopped: true, ...errorBody(err) };
    }
    log.warn({ err }, 'job failed; pg-boss retries it');
    throw err;
  }
}
