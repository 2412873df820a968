import test from 'ava';
import type { Environment } from '../../domain/shared/caller.js';
import { closeFiscalChainJob } from '../../workers/handlers/close-fiscal-chain.js';
import { closeFiscalPeriods } from '../../workers/handlers/close-fiscal-periods.js';
import { SCHEDULES, WORKERS } from '../../workers/queues.js';
import { invoiceAt, queuedJobs, smallInvoice } from '../helpers/fiscal-closings.js';
import { postJson, readJson } from '../helpers/http.js';
import { seedPlatformTenant } from '../helpers/identities.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { TestClock, withClock } from '../helpers/test-clock.js';

const clock = new TestClock('2026-01-30T10:00:00Z');
let app: TestApp;
test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' }, override: withClock(clock) });
});
test.after.always(() => app?.close());

interface ChainJob {
  tenantId: string;
  environment: Environment;
  subTenantId: string | null;
  date: string;
}

const closingsOf = (tenantId: string) =>
  app
    .ownerDb('fiscal_closings')
    .where({ tenant_id: tenantId })
    .orderBy([{ column: 'sub_tenant_id', order: 'asc', nulls: 'first' }, 'type', 'period_start']);

test('the schedule runs every hour (00:00 UTC closes the day before) and has a worker', (t) => {
  t.deepEqual(
    SCHEDULES.find((s) => s.queue === 'close-fiscal-periods'),
    { queue: 'close-fiscal-periods', cron: '0 * * * *', tz: 'UTC' },
  );
  for (const queue of ['close-fiscal-periods', 'close-fiscal-chain', 'anchor-fiscal-closing'] as const) {
    t.truthy(WORKERS[queue].handler, queue);
  }
});

test.serial('at 00:00 UTC on the 1st: one job per chain due, each closing its days and its month', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const key = tenant.keys.sk_test;
  const sub = (
    await readJson(
      await app.request(
        '/api/v1/tenant/sub-tenants',
        postJson({ external_id: 'cafe', name: 'Café' }, { 'X-Tenant-Key': key }),
      ),
    )
  ).data;
  await invoiceAt(app, clock, key, '2026-01-30T10:00:00Z', smallInvoice(100));
  await invoiceAt(app, clock, key, '2026-01-31T18:00:00Z', smallInvoice(50));
  await invoiceAt(
    app,
    clock,
    key,
    '2026-01-31T19:00:00Z',
    smallInvoice(30),
    `/api/v1/tenant/sub-tenants/${sub.id}/invoices`,
  );

  clock.set('2026-02-01T00:00:05Z');
  const scheduled = await closeFiscalPeriods({}, app.deps);
  t.like(scheduled, { date: '2026-01-31', chains: 2, anchors_requeued: 0 });
  const jobs = await queuedJobs<ChainJob>(app.ownerDb, 'close-fiscal-chain', { tenantId: tenant.tenantId });
  t.deepEqual(jobs.map((j) => j.subTenantId).sort(), [null, sub.id].sort());
  for (const job of jobs) t.like(job, { environment: 'sandbox', date: '2026-01-31' });
  const results = [];
  for (const job of jobs) results.push(await closeFiscalChainJob(job, app.deps));
  t.deepEqual(
    results.find((_, i) => jobs[i].subTenantId === null),
    { daily: 2, monthly: 1, yearly: 0 },
  );

  const own = (await closingsOf(tenant.tenantId)).filter((c) => c.sub_tenant_id === null);
  t.deepEqual(
    own.map((c) => `${c.type} ${c.period_start}..${c.period_end}`),
    ['daily 2026-01-30..2026-01-30', 'daily 2026-01-31..2026-01-31', 'monthly 2026-01-01..2026-01-31'],
  );
  const month = own[2];
  t.like(month, { first_sequence_number: 1, last_sequence_number: 2, entries_count: 2 });
  t.like(month.totals, { invoices_count: 2, net_ht: '150.00', net_ttc: '180.00' });
  t.like(month.fiscal_year_totals, { net_ht: '150.00' });
  t.is(month.last_chain_hash, own[1].last_chain_hash, 'the month seals what its last day sealed');
  const theirs = (await closingsOf(tenant.tenantId)).filter((c) => c.sub_tenant_id === sub.id);
  t.deepEqual(
    theirs.map((c) => `${c.type} ${c.period_start}`),
    ['daily 2026-01-31', 'monthly 2026-01-01'],
  );
  t.like(theirs[1].totals, { net_ht: '30.00' });

  // A second run changes nothing; the schedule then finds nothing due.
  const before = (await closingsOf(tenant.tenantId)).length;
  for (const job of jobs) t.deepEqual(await closeFiscalChainJob(job, app.deps), { daily: 0, monthly: 0, yearly: 0 });
  t.is((await closingsOf(tenant.tenantId)).length, before);
  clock.set('2026-02-01T01:00:00Z');
  t.like(await closeFiscalPeriods({}, app.deps), { chains: 0 });
});

test.serial('two workers closing the same chain at once leave one closing per period', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  await invoiceAt(app, clock, tenant.keys.sk_test, '2026-03-02T10:00:00Z');
  await invoiceAt(app, clock, tenant.keys.sk_test, '2026-03-05T10:00:00Z');
  clock.set('2026-03-08T00:00:02Z');
  const job: ChainJob = { tenantId: tenant.tenantId, environment: 'sandbox', subTenantId: null, date: '2026-03-07' };
  const [a, b] = await Promise.all([closeFiscalChainJob(job, app.deps), closeFiscalChainJob(job, app.deps)]);
  const made = [a, b] as { daily: number }[];
  t.deepEqual(made.map((r) => r.daily).sort(), [0, 6], 'one run closed the six days, the other found them closed');
  const rows = await closingsOf(tenant.tenantId);
  t.is(rows.length, 6);
  t.is(new Set(rows.map((r) => r.period_start)).size, 6);
  const anchors = await app.ownerDb('fiscal_anchors').where({ tenant_id: tenant.tenantId });
  t.is(anchors.length, 6, 'one pending anchor per closing');
  const anchorJobs = () => queuedJobs(app.ownerDb, 'anchor-fiscal-closing', { tenantId: tenant.tenantId });
  t.is((await anchorJobs()).length, 6, 'one anchor job each, queued with its closing');

  // An hour later the anchors are still pending, but their jobs are queued: nothing is queued twice.
  clock.set('2026-03-08T01:00:00Z');
  t.like(await closeFiscalPeriods({}, app.deps), { anchors_requeued: 0 });
  // Jobs that gave up (retries exhausted) leave pending anchors behind: the schedule queues them again.
  await app.ownerDb.raw(
    "update pgboss.job set state = 'failed' where name = 'anchor-fiscal-closing' and data->>'tenantId' = ?",
    [tenant.tenantId],
  );
  t.is((await anchorJobs()).length, 0);
  t.like(await closeFiscalPeriods({}, app.deps), { anchors_requeued: 6 });
  t.is((await anchorJobs()).length, 6);
});

test.serial('on 1 January the year closes too, and the new year starts from zero', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const key = tenant.keys.sk_test;
  await invoiceAt(app, clock, key, '2026-11-15T10:00:00Z', smallInvoice(1000));
  await invoiceAt(app, clock, key, '2026-12-31T23:00:00Z', smallInvoice(10));
  clock.set('2027-01-01T00:00:01Z');
  const job: ChainJob = { tenantId: tenant.tenantId, environment: 'sandbox', subTenantId: null, date: '2026-12-31' };
  t.deepEqual(await closeFiscalChainJob(job, app.deps), { daily: 47, monthly: 2, yearly: 1 });
  const rows = await closingsOf(tenant.tenantId);
  const year = rows.find((r) => r.type === 'yearly')!;
  t.like(year, { period_start: '2026-01-01', period_end: '2026-12-31', fiscal_year: 2026, entries_count: 2 });
  t.like(year.totals, { invoices_count: 2, net_ht: '1010.00' });
  const months = rows.filter((r) => r.type === 'monthly');
  t.deepEqual(
    months.map((m) => [m.period_start, m.totals.net_ht, m.fiscal_year_totals.net_ht]),
    [
      ['2026-11-01', '1000.00', '1000.00'],
      ['2026-12-01', '10.00', '1010.00'],
    ],
  );
  // 1 January 2027: the closing entries of the night are its only entries; the year total restarts.
  await invoiceAt(app, clock, key, '2027-01-01T09:00:00Z', smallInvoice(5));
  clock.set('2027-01-02T00:00:01Z');
  t.deepEqual(await closeFiscalChainJob({ ...job, date: '2027-01-01' }, app.deps), {
    daily: 1,
    monthly: 0,
    yearly: 0,
  });
  const jan1 = (await closingsOf(tenant.tenantId)).find((r) => r.period_start === '2027-01-01' && r.type === 'daily')!;
  t.like(jan1.totals, { net_ht: '5.00' });
  t.like(jan1.fiscal_year_totals, { net_ht: '5.00' });
  t.like(jan1.perpetual_totals, { net_ht: '1015.00' });
  t.is(Number(jan1.entries_count), 51, '50 closing entries of the night, and the invoice');
});
