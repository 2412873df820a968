import test from 'ava';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import { defineCommand } from '../../domain/shared/operation.js';
import { deadLetterQueueOf, QUEUE_NAMES } from '../../domain/shared/queues.js';
import { DEFAULT_FINISHED_JOBS_KEEP_HOURS } from '../../domain/shared/settings.js';
import { startProcess, stopProcess, WORKER_MAIN, waitFor } from '../helpers/processes.js';
import { seedTenant } from '../helpers/seed.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';

let env: TestDeps;
test.before(async () => {
  env = await createTestDeps();
});
test.after.always(() => env?.close());

const emitInvoiceCreated = defineCommand<Record<string, never>, { id: string }>({
  name: 'emit_invoice_created',
  summary: 'Test command: emits one event.',
  input: 'EmptyInput',
  output: 'EmptyInput',
  callers: ['system'],
  async run(_input, ctx) {
    return { id: await ctx.events.emit('invoice.created', { id: ctx.caller.tenantId! }) };
  },
});

test.serial('a job sent in a committed operation is worked by a worker process, which stops gracefully', async (t) => {
  const tenant = await seedTenant(env.ownerDb);
  const { id: eventId } = await execute(emitInvoiceCreated, {}, systemCaller(tenant.id, 'sandbox'), env.deps);
  t.is((await env.ownerDb('events').where({ id: eventId }).first()).dispatched_at, null);

  const { child } = await startProcess(
    WORKER_MAIN,
    { DATABASE_URL: env.database.url, APP_KEY: env.deps.config.appKey!.toString('hex') },
    'ready',
  );
  try {
    const event = await waitFor(async () => {
      const row = await env.ownerDb('events').where({ id: eventId }).first();
      return row.dispatched_at ? row : null;
    });
    t.true(event.dispatched_at instanceof Date);
    const jobs = await waitFor(async () => {
      const { rows } = await env.ownerDb.raw(
        "select state from pgboss.job where name = 'dispatch-event' and data->>'eventId' = ?",
        [eventId],
      );
      return rows.every((row: { state: string }) => row.state === 'completed') && rows;
    });
    t.is(jobs.length, 1, 'one dispatch job, completed');
  } finally {
    t.is(await stopProcess(child), 0, 'SIGTERM ends the worker with exit code 0');
  }
});

test.serial('every queue has a dead-letter queue and the cron schedules are registered', async (t) => {
  for (const queue of QUEUE_NAMES) {
    const created = await env.deps.boss.getQueue(queue);
    t.is(created?.deleteAfterSeconds, DEFAULT_FINISHED_JOBS_KEEP_HOURS * 3600, `${queue}: made by the migrations`);
  }
  const { child } = await startProcess(
    WORKER_MAIN,
    {
      DATABASE_URL: env.database.url,
      APP_KEY: env.deps.config.appKey!.toString('hex'),
      FINISHED_JOBS_KEEP_HOURS: '5',
    },
    'ready',
  );
  try {
    for (const queue of QUEUE_NAMES) {
      const info = await env.deps.boss.getQueue(queue);
      t.is(info?.deadLetter, deadLetterQueueOf(queue), queue);
      t.is(info?.deleteAfterSeconds, 5 * 3600, `${queue}: FINISHED_JOBS_KEEP_HOURS, set as the worker starts`);
      t.truthy(await env.deps.boss.getQueue(deadLetterQueueOf(queue)));
    }
    const schedules = await env.deps.boss.getSchedules();
    t.true(schedules.some((s) => s.name === 'purge-idempotency-keys'));
  } finally {
    t.is(await stopProcess(child), 0);
  }
});
