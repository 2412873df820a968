import test from 'ava';
import { runSoak, soakSettings } from '../../bench/soak.js';
import { purgeIdempotencyKeys } from '../../domain/platform/operations/index.js';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import { DEFAULT_FINISHED_JOBS_KEEP_HOURS } from '../../domain/shared/settings.js';
import { createTestDeps } from '../helpers/test-deps.js';

/**
 * The short soak (SOAK_SECONDS, 30 by default here; `npm run bench` runs 600): two web and two
 * worker processes under a steady mixed load, while a fake SuperPDP fills the sub-tenants' inboxes. The long run's figures are in docs/operations.md.
 */
test('a steady mixed load: no 5xx, bounded p99 and memory, every webhook delivered, every inbox invoice synced once', async (t) => {
  const env = await createTestDeps();
  const database = env.database;
  try {
    const base = soakSettings(30);
    // the inbox sync is part of what this test checks: never switched off here
    const settings = { ...base, seconds: Math.min(base.seconds, 60), rate: 15, inboxRate: Math.max(1, base.inboxRate) };
    const report = await runSoak(database.url, settings);
    t.log(JSON.stringify(report.routes));
    t.log(JSON.stringify(report.processes));
    t.log(JSON.stringify(report.incoming_sync));
    // the inbox sync against the fake SuperPDP: every supplier invoice it offered stored once
    const sync = report.incoming_sync;
    t.true(sync.offered >= settings.seconds * settings.inboxRate - 1, `the inboxes kept their rate: ${sync.offered}`);
    t.true(sync.offered > 0);
    t.is(sync.synced, sync.offered, 'every offered supplier invoice was synced');
    t.is(sync.not_synced, 0);
    t.is(sync.duplicates, 0, 'none stored twice');
    t.is(sync.trigger_errors, 0, 'every sync trigger was accepted');
    t.true(sync.downloads >= sync.synced);
    for (const [route, figures] of Object.entries(report.routes)) {
      t.is(figures.errors, 0, `${route}: no transport error or dropped request`);
      t.is(figures.status['5xx'] ?? 0, 0, `${route}: no 5xx`);
      t.is(figures.status['4xx'] ?? 0, 0, `${route}: no refusal (${figures.first_refusal})`);
      t.true(figures.requests > 0, `${route} was exercised`);
      t.true(figures.p99_ms < 3000, `${route}: p99 ${figures.p99_ms} ms`);
    }
    t.is(report.routes['POST /api/v1/sandbox/invoices'].status['2xx'], report.invoices_created);
    t.true(report.invoices_created >= settings.seconds, 'the creations kept their rate');
    t.is(report.webhooks_delivered, report.invoices_created, 'every invoice.created reached the receiver');
    for (const p of report.processes) {
      // 30 s is within the workers' warm-up (about +70 MB, then flat: docs/operations.md "Soak"), so
      // this catches a gross leak only; the 600 s bench run shows the plateau
      t.true(p.rss_end_mb - p.rss_start_mb < 150, `${p.role} ${p.pid}: ${p.rss_start_mb} → ${p.rss_end_mb} MB`);
    }
    t.true(report.database.bytes_per_invoice > 0);
    t.is(
      report.bounded.idempotency_keys_end - report.bounded.idempotency_keys_start,
      report.routes['POST /api/v1/sandbox/invoices'].requests,
      'one key per keyed request, none lost or doubled',
    );

    // What the soak left, once past its retention, is what the purges remove: the keys after their
    // 24 h window (`purge-idempotency-keys`), the finished jobs after FINISHED_JOBS_KEEP_HOURS (48 h by
    // default; pg-boss's maintenance).
    await env.ownerDb('idempotency_keys').update({ expires_at: env.ownerDb.raw("now() - interval '1 second'") });
    const purged = await execute(purgeIdempotencyKeys, {}, systemCaller(), env.deps);
    t.is(purged.deleted, report.bounded.idempotency_keys_end);
    t.is(Number((await env.ownerDb('idempotency_keys').count({ n: '*' }))[0].n), 0);
    // the service's queues (pg-boss's own cron queue, `__pgboss__send-it`, keeps its week)
    const finished = "state in ('completed', 'failed', 'cancelled') and name not like '\\_\\_pgboss\\_\\_%'";
    const finishedJobs = async () =>
      (await env.ownerDb.raw(`select count(*)::int as n from pgboss.job where ${finished}`)).rows[0].n as number;
    const age = (hours: number) =>
      env.ownerDb.raw(`update pgboss.job set completed_on = now() - make_interval(hours => ?) where ${finished}`, [
        hours,
      ]);
    const soakJobs = await finishedJobs();
    t.true(soakJobs > 0);
    // pg-boss's maintenance runs once per queue and interval (`maintain_on`): cleared before each pass
    const maintainNow = async () => {
      await env.ownerDb.raw('update pgboss.queue set maintain_on = null');
      await env.deps.boss.supervise();
    };
    await age(DEFAULT_FINISHED_JOBS_KEEP_HOURS - 1);
    await maintainNow();
    t.is(await finishedJobs(), soakJobs, 'finished jobs younger than FINISHED_JOBS_KEEP_HOURS are kept');
    await age(DEFAULT_FINISHED_JOBS_KEEP_HOURS + 1);
    await maintainNow();
    t.is(await finishedJobs(), 0, 'finished jobs past FINISHED_JOBS_KEEP_HOURS are deleted');
  } finally {
    await env.close();
  }
});
