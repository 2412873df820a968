import { randomUUID } from 'node:crypto';
import test from 'ava';
import { QueueStatistics } from '../../domain/shared/queue-statistics.js';
import { waitFor } from '../helpers/processes.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';

let env: TestDeps;
test.before(async () => {
  env = await createTestDeps();
});
test.after.always(() => env?.close());

const JOB_TABLE = 'pgboss.job_common';

/** A burst of jobs on one queue, as the web sends them. */
async function sendJobs(count: number): Promise<void> {
  await env.deps.boss.insert(
    'dispatch-event',
    Array.from({ length: count }, () => ({ data: { tenantId: randomUUID(), eventId: randomUUID() } })),
  );
}

async function jobTableStatistics(): Promise<{ analyzed: boolean; rows: number }> {
  const { rows } = await env.ownerDb.raw(
    `select s.last_analyze is not null or s.last_autoanalyze is not null as analyzed, c.reltuples::int as rows
     from pg_stat_all_tables s join pg_class c on c.oid = s.relid
     where s.schemaname = 'pgboss' and s.relname = 'job_common'`,
  );
  return rows[0];
}

// Serial: the tests share one database and its job table's statistics.
test.serial(
  'a burst of jobs makes the job table stale; one pass analyzes it, the next finds nothing to do',
  async (t) => {
    const statistics = new QueueStatistics(env.deps.boss, env.deps.log);
    await sendJobs(300);
    // The backends report their changes to the statistics system within a second or so.
    const analyzed = await waitFor(async () => {
      const tables = await statistics.refresh();
      return tables.length > 0 && tables;
    });
    t.true(analyzed.includes(JOB_TABLE));
    const after = await jobTableStatistics();
    t.true(after.analyzed);
    t.true(after.rows >= 300, `the planner now counts ${after.rows} rows`);
    t.deepEqual(await statistics.refresh(), []);
  },
);

test.serial('while another process analyzes, a pass skips rather than waits', async (t) => {
  const statistics = new QueueStatistics(env.deps.boss, env.deps.log);
  await sendJobs(3000);
  await env.ownerDb.transaction(async (trx) => {
    await trx.raw(`select pg_advisory_xact_lock(hashtextextended('einvoice:queue-analyze', 0))`);
    // Long enough for the burst's changes to reach the statistics system: the table is stale by now.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    t.deepEqual(await statistics.refresh(), []);
  });
  const analyzed = await waitFor(async () => {
    const tables = await statistics.refresh();
    return tables.length > 0 && tables;
  });
  t.true(analyzed.includes(JOB_TABLE));
  t.true((await jobTableStatistics()).rows >= 3300);
});

test.serial('started, the keeper analyzes a stale job table on its own until stopped', async (t) => {
  const statistics = new QueueStatistics(env.deps.boss, env.deps.log);
  await sendJobs(5000);
  statistics.start(1);
  try {
    await waitFor(async () => (await jobTableStatistics()).rows >= 8300);
    t.pass();
  } finally {
    await statistics.stop();
  }
  await sendJobs(5000);
  await new Promise((resolve) => setTimeout(resolve, 2500));
  t.true((await jobTableStatistics()).rows < 13300, 'a stopped keeper analyzes nothing more');
});

test.serial('started on a backlog, the keeper analyzes it at once, not after its first interval', async (t) => {
  const statistics = new QueueStatistics(env.deps.boss, env.deps.log);
  const before = (await jobTableStatistics()).rows;
  await sendJobs(5000);
  // As when a worker starts on jobs queued while none ran: the statistics system knows of them.
  await waitFor(async () => {
    const { rows } = await env.ownerDb.raw(
      `select n_mod_since_analyze from pg_stat_all_tables where schemaname = 'pgboss' and relname = 'job_common'`,
    );
    return Number(rows[0].n_mod_since_analyze) >= 5000;
  });
  statistics.start(3600);
  try {
    // ANALYZE estimates the rows from a sample: the burst shows, give or take a few hundred
    await waitFor(async () => (await jobTableStatistics()).rows >= before + 4500);
    t.pass();
  } finally {
    await statistics.stop();
  }
});
