import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import test from 'ava';
import type { PgBoss } from 'pg-boss';
import { createBoss } from '../../domain/shared/boss.js';
import type { JobPayloads, QueueName } from '../../domain/shared/queues.js';
import { txJobs } from '../../domain/shared/tx-jobs.js';
import type { WorkerSpec } from '../../workers/queues.js';
import { WORKERS } from '../../workers/queues.js';
import { type Polling, workQueue } from '../../workers/worker.js';
import { waitFor } from '../helpers/processes.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';

let env: TestDeps;
test.before(async () => {
  env = await createTestDeps();
});
test.after.always(() => env?.close());

interface Started {
  tenantId: string;
  order: number;
}

/**
 * A worker-role pg-boss working `queue` with the queue's own WORKERS options, but with a handler
 * that only records the order jobs start in (and takes `ms`): what is measured is pickup, not work.
 */
async function startRecordingWorker<Q extends QueueName>(queue: Q, polling: Polling, ms: number) {
  const boss: PgBoss = createBoss(env.database.url, 'worker');
  boss.on('error', () => {});
  await boss.start();
  const started = new Map<string, Started>();
  const handler = async (payload: JobPayloads[Q]) => {
    const { tenantId, invoiceId, creditNoteId, deliveryId } = payload as Record<string, string>;
    started.set(invoiceId ?? creditNoteId ?? deliveryId!, { tenantId: tenantId!, order: started.size });
    await sleep(ms);
  };
  await workQueue(queue, { ...WORKERS[queue], handler, batchHandler: undefined }, { ...env.deps, boss }, polling);
  return { started, stop: () => boss.stop({ graceful: true, timeout: 5000 }) };
}

/** Queues `count` jobs of one tenant the way operations do (txJobs: the tenant's fair-share priority). */
async function queueJobs(queue: QueueName, tenantId: string, count: number): Promise<void> {
  const idKey = { 'deliver-webhook': 'deliveryId', 'generate-credit-note-documents': 'creditNoteId' }[queue as string];
  await env.deps.db.transaction((trx) =>
    txJobs(env.deps.boss, trx).sendMany(
      queue,
      Array.from({ length: count }, () => ({
        payload: { tenantId, [idKey ?? 'invoiceId']: randomUUID(), attempt: 1 } as unknown as JobPayloads[typeof queue],
        group: { id: tenantId },
      })),
    ),
  );
}

async function jobTimes(queue: QueueName): Promise<{ state: string; created: number; started: number | null }[]> {
  const { rows } = await env.ownerDb.raw(
    `select state, extract(epoch from created_on) * 1000 as created, extract(epoch from started_on) * 1000 as started
       from pgboss.job where name = ?`,
    [queue],
  );
  return rows.map((r: { state: string; created: string; started: string | null }) => ({
    state: r.state,
    created: Number(r.created),
    started: r.started === null ? null : Number(r.started),
  }));
}

test.serial(
  'a queue with ready jobs fetches again at once: 50 jobs of one tenant start within one polling interval',
  async (t) => {
    const queue = 'generate-invoice-documents';
    const polling = { seconds: 5, notifySeconds: 5 };
    await queueJobs(queue, randomUUID(), 50);
    const worker = await startRecordingWorker(queue, polling, 5);
    try {
      await waitFor(async () => (await jobTimes(queue)).every((job) => job.state === 'completed'), 30_000);
    } finally {
      await worker.stop();
    }
    const starts = (await jobTimes(queue)).map((job) => job.started!);
    t.is(starts.length, 50);
    t.is(worker.started.size, 50);
    // The first fetches take at most a few jobs; a loop that then waited for its polling interval
    // would need about ten intervals for the rest. Only fetching again after a full batch explains this.
    const spread = Math.max(...starts) - Math.min(...starts);
    t.true(spread < 2 * polling.seconds * 1000, `the 50 jobs started over ${Math.round(spread)} ms`);
  },
);

test.serial('a job sent in a transaction wakes an idle worker at the commit, not at its next poll', async (t) => {
  const queue = 'deliver-webhook';
  // Polls far apart: within the test's wait, only the NOTIFY can wake a loop.
  const polling = { seconds: 60, notifySeconds: 60 };
  const tenantId = randomUUID();
  const worker = await startRecordingWorker(queue, polling, 1);
  try {
    // Every loop has fetched once (one found this job, the others nothing) and is now asleep.
    await queueJobs(queue, tenantId, 1);
    await waitFor(async () => worker.started.size === 1);
    await sleep(300);

    const payload = { tenantId, deliveryId: randomUUID(), attempt: 1 };
    let committedAt = 0;
    await env.deps.db.transaction(async (trx) => {
      await txJobs(env.deps.boss, trx).send(queue, payload, { group: { id: tenantId } });
      // A NOTIFY delivered before the commit would find no job, and the loops would sleep on.
      await sleep(500);
      t.is(worker.started.size, 1, 'nothing is worked before the commit');
      committedAt = Date.now();
    });
    await waitFor(async () => worker.started.has(payload.deliveryId), 20_000);
    const pickup = Date.now() - committedAt;
    t.true(pickup < polling.seconds * 1000, `started ${pickup} ms after the commit`);
  } finally {
    await worker.stop();
  }
});

test.serial('a tenant queued behind another tenant’s backlog starts before that backlog is done', async (t) => {
  const queue = 'generate-credit-note-documents';
  const polling = { seconds: 5, notifySeconds: 5 };
  const [first, second] = [randomUUID(), randomUUID()];
  await queueJobs(queue, first, 200);
  await queueJobs(queue, second, 5);
  const worker = await startRecordingWorker(queue, polling, 10);
  try {
    await waitFor(async () => (await jobTimes(queue)).every((job) => job.state === 'completed'), 60_000);
  } finally {
    await worker.stop();
  }
  const starts = [...worker.started.values()];
  const lastOfFirst = Math.max(...starts.filter((s) => s.tenantId === first).map((s) => s.order));
  const ofSecond = starts.filter((s) => s.tenantId === second).map((s) => s.order);
  t.is(starts.length, 205);
  t.is(ofSecond.length, 5);
  t.true(
    ofSecond.every((order) => order < lastOfFirst),
    `second tenant started at ${ofSecond.join(', ')}; first tenant's last job at ${lastOfFirst}`,
  );
  // Not just before the end: the second tenant has a loop of its own from the first fetches on.
  t.true(Math.max(...ofSecond) < 50, `second tenant started at ${ofSecond.join(', ')}`);
});

type DocumentJobs = 'generate-invoice-documents';
type Row = { id: string; state: string; output: unknown };

/**
 * Queues a good and a bad document job together (one fetch takes both) and works them with
 * `spec`'s handlers until the good one is completed and the bad one waits for its retry.
 */
async function workGoodAndBad(
  handlers: (good: string, bad: string) => Pick<WorkerSpec<DocumentJobs>, 'handler' | 'batchHandler'>,
): Promise<{ good: Row | undefined; bad: Row | undefined }> {
  const queue = 'generate-invoice-documents';
  const boss: PgBoss = createBoss(env.database.url, 'worker');
  boss.on('error', () => {});
  await boss.start();
  const [good, bad] = [randomUUID(), randomUUID()];
  const tenantId = randomUUID();
  try {
    await env.deps.boss.insert(queue, [
      { data: { tenantId, invoiceId: good }, group: { id: tenantId } },
      { data: { tenantId, invoiceId: bad }, group: { id: tenantId } },
    ]);
    await workQueue(
      queue,
      // One loop: its one fetch takes both jobs (two loops fetching at once may each lock one).
      { ...WORKERS[queue], workers: 1, ...handlers(good, bad) },
      { ...env.deps, boss },
      { seconds: 60, notifySeconds: 60 },
    );
    const byId = await waitFor(async () => {
      const { rows } = await env.ownerDb.raw(
        "select data->>'invoiceId' as id, state, output from pgboss.job where name = ? and data->>'invoiceId' = any(?)",
        [queue, [good, bad]],
      );
      const found = new Map<string, Row>(rows.map((r: Row) => [r.id, r]));
      return found.get(good)?.state === 'completed' && found.get(bad)?.state === 'retry' ? found : null;
    });
    return { good: byId.get(good), bad: byId.get(bad) };
  } finally {
    await boss.stop({ graceful: true, timeout: 5000 });
  }
}

test.serial('a job that fails in a batch is retried alone: the other job of its batch completes', async (t) => {
  const { bad } = await workGoodAndBad((_good, badId) => ({
    handler: async ({ invoiceId }: JobPayloads[DocumentJobs]) => {
      if (invoiceId === badId) throw new Error('the database went away');
    },
    batchHandler: undefined,
  }));
  t.regex(JSON.stringify(bad?.output), /the database went away/);
});

test.serial('a batch that fails as a whole runs its jobs one by one: only the bad job is retried', async (t) => {
  let batches = 0;
  let goodId = '';
  const { good, bad } = await workGoodAndBad((goodJob, badId) => {
    goodId = goodJob;
    return {
      batchHandler: async () => {
        batches += 1;
        throw new Error('deadlock detected');
      },
      handler: async ({ invoiceId }: JobPayloads[DocumentJobs]) => {
        if (invoiceId === badId) throw new Error('the invoice cannot be read');
        return { alone: invoiceId };
      },
    };
  });
  t.true(batches >= 1, 'the batch was tried first');
  t.deepEqual(good?.output, { alone: goodId });
  t.regex(JSON.stringify(bad?.output), /cannot be read/);
});
