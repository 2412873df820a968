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
async function startRecordingWorker<Q extends QueueName>(
  queue: Q,
  polling: Polling,
  ms: number | ((payload: JobPayloads[Q]) => number),
  loops: Partial<Pick<WorkerSpec<Q>, 'workers' | 'batch'>> = {},
) {
  const boss: PgBoss = createBoss(env.database.url, 'worker');
  boss.on('error', () => {});
  await boss.start();
  const started = new Map<string, Started>();
  const handler = async (payload: JobPayloads[Q]) => {
    const { tenantId, invoiceId, creditNoteId, deliveryId } = payload as Record<string, string>;
    started.set(invoiceId ?? creditNoteId ?? deliveryId!, { tenantId: tenantId!, order: started.size });
    await sleep(typeof ms === 'number' ? ms : ms(payload));
  };
  const spec = { ...WORKERS[queue], ...loops, handler, batchHandler: undefined };
  await workQueue(queue, spec, { ...env.deps, boss }, polling);
  return { boss, started, stop: () => boss.stop({ graceful: true, timeout: 5000 }) };
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

/** When each loop of `queue` last came back from a fetch, by loop. */
const lastFetches = (boss: PgBoss, queue: string) =>
  new Map(
    boss
      .getWipData()
      .filter((loop) => loop.name === queue)
      .map((loop) => [loop.id, loop.lastFetchedOn]),
  );

test.serial('a job sent wakes one idle loop of its queue, not every loop', async (t) => {
  const queue = 'deliver-webhook';
  const polling = { seconds: 60, notifySeconds: 60 };
  const tenantId = randomUUID();
  const worker = await startRecordingWorker(queue, polling, 1);
  try {
    t.true(WORKERS[queue].workers! > 2);
    // The first fetches are behind every loop: all asleep until a NOTIFY or a minute.
    await waitFor(async () => [...lastFetches(worker.boss, queue).values()].every((at) => at !== null));
    await sleep(300);
    for (let k = 1; k <= 3; k++) {
      const before = lastFetches(worker.boss, queue);
      const deliveryId = randomUUID();
      await env.deps.db.transaction((trx) =>
        txJobs(env.deps.boss, trx).send(queue, { tenantId, deliveryId, attempt: 1 }, { group: { id: tenantId } }),
      );
      await waitFor(async () => worker.started.has(deliveryId), 20_000);
      await sleep(300);
      const after = lastFetches(worker.boss, queue);
      const woken = [...after].filter(([id, at]) => at !== before.get(id)).length;
      t.is(woken, 1, `job ${k}: ${woken} of ${after.size} loops fetched`);
    }
  } finally {
    await worker.stop();
  }
});

test.serial(
  'a job sent while every loop is busy is fetched as soon as one is done, not at the next poll',
  async (t) => {
    const queue = 'deliver-webhook';
    const polling = { seconds: 60, notifySeconds: 60 };
    const tenantId = randomUUID();
    const slow = new Set<string>([randomUUID(), randomUUID()]);
    const worker = await startRecordingWorker(queue, polling, ({ deliveryId }) => (slow.has(deliveryId) ? 1500 : 1), {
      workers: 2,
      batch: 1,
    });
    try {
      await waitFor(async () => [...lastFetches(worker.boss, queue).values()].every((at) => at !== null));
      // Two tenants: one tenant's claimed jobs are capped at the pool less one loop.
      await env.deps.db.transaction((trx) =>
        txJobs(env.deps.boss, trx).sendMany(
          queue,
          [...slow].map((deliveryId) => {
            const owner = randomUUID();
            return { payload: { tenantId: owner, deliveryId, attempt: 1 }, group: { id: owner } };
          }),
        ),
      );
      await waitFor(async () => worker.started.size === 2);
      t.true(
        worker.boss
          .getWipData()
          .filter((loop) => loop.name === queue)
          .every((loop) => loop.count === 1),
      );

      const deliveryId = randomUUID();
      const sentAt = Date.now();
      await env.deps.db.transaction((trx) =>
        txJobs(env.deps.boss, trx).send(queue, { tenantId, deliveryId, attempt: 1 }, { group: { id: tenantId } }),
      );
      await waitFor(async () => worker.started.has(deliveryId), 30_000);
      const pickup = Date.now() - sentAt;
      t.true(pickup < 10_000, `started ${pickup} ms after it was sent`);
    } finally {
      await worker.stop();
    }
  },
);

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
