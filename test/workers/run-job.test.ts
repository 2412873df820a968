import test from 'ava';
import { AppError } from '../../domain/shared/app-error.js';
import type { Deps } from '../../domain/shared/deps.js';
import { createLogger } from '../../domain/shared/logger.js';
import { runJob } from '../../workers/run-job.js';

const deps = { log: createLogger('silent', 'test') } as Deps;
const job = { id: 'job-1', name: 'dispatch-event' as const, data: { eventId: 'e', tenantId: 't' }, retryCount: 0 };

test('a handler result becomes the job output', async (t) => {
  t.deepEqual(await runJob(async () => ({ done: 1 }), job, deps), { done: 1 });
});

test('a non-retryable AppError is recorded as the output and the job stops', async (t) => {
  const output = await runJob(
    async () => {
      throw new AppError('NOT_FOUND', 'No event e.', { retryable: false });
    },
    job,
    deps,
  );
  // The error shape every surface shares (domain/shared/error-body.ts), as an HTTP client reads it.
  t.deepEqual(output, {
    stopped: true,
    message: 'No event e.',
    error: 'not_found',
    code: 'NOT_FOUND',
    error_code: 'NOT_FOUND',
  });
});

test('any other error is thrown, so pg-boss retries the job and then dead-letters it', async (t) => {
  await t.throwsAsync(
    runJob(
      async () => {
        throw new AppError('PROVIDER_UNAVAILABLE', 'HTTP 503', { retryable: true });
      },
      job,
      deps,
    ),
    { message: 'HTTP 503' },
  );
  await t.throwsAsync(
    runJob(
      async () => {
        throw new Error('socket hang up');
      },
      job,
      deps,
    ),
    { message: 'socket hang up' },
  );
});
