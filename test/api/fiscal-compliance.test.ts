import { createHash } from 'node:crypto';
import test from 'ava';
import { closeFiscalChain } from '../../domain/ledger/operations/close-fiscal-chain.js';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import { insertApiKey } from '../../domain/tenants/api-key-store.js';
import { expectInvalid, expectRefusal } from '../helpers/assertions.js';
import { closeDay, getFiscal, invoiceAt, runAnchorJobs, smallInvoice } from '../helpers/fiscal-closings.js';
import { postJson, readJson } from '../helpers/http.js';
import { seedPlatformTenant } from '../helpers/identities.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { TestClock, withClock } from '../helpers/test-clock.js';

const clock = new TestClock('2026-05-04T10:00:00Z');
let app: TestApp;
test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' }, override: withClock(clock) });
});
test.after.always(() => app?.close());

const compliance = async (key: string, query = '') => {
  const { status, body } = await getFiscal(app, key, `compliance${query}`);
  if (status === 200) app.deps.schemas.parse('FiscalCompliance', body.data); // the answer is what the schema says
  return { status, body, data: body.data };
};
const codes = (data: { warnings: { code: string }[] }) => data.warnings.map((w) => w.code);

/** A tenant whose chain began with one invoice on `day` at 10:00 UTC. */
async function tenantFrom(day: string) {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  await invoiceAt(app, clock, tenant.keys.sk_test, `${day}T10:00:00Z`, smallInvoice(100));
  return tenant;
}

/**
 * As a superuser could: entry 1 of a chain rewritten with its own hashes recomputed, the ledger's
 * triggers off for that statement only. Entry 2 still links to the old chain hash.
 */
async function alterFirstEntry(tenantId: string, subTenantId: string | null) {
  await app.ownerDb.transaction(async (tx) => {
    const row = await tx('fiscal_entries')
      .where({ tenant_id: tenantId, sequence_number: 1, sub_tenant_id: subTenantId })
      .first();
    const data = { ...row.data, total_ht: '1.00' };
    const canonical = `{${Object.keys(data)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${JSON.stringify(data[k])}`)
      .join(',')}}`;
    const sha = (s: string) => createHash('sha256').update(s).digest('hex');
    await tx.raw('alter table fiscal_entries disable trigger user');
    await tx('fiscal_entries')
      .where({ id: row.id })
      .update({
        data: canonical,
        canonical_data: canonical,
        data_hash: sha(canonical),
        chain_hash: sha(row.previous_hash + sha(canonical)),
      });
    await tx.raw('alter table fiscal_entries enable trigger user');
  });
}

test.serial(
  'a chain with yesterday closed and time-stamped is compliant; the integrity check is reused for a day',
  async (t) => {
    const tenant = await tenantFrom('2026-05-04');
    const key = tenant.keys.sk_test;
    clock.set('2026-05-05T01:30:00Z');
    const closing = (await closeDay(app, key, { date: '2026-05-04' })).body.data;
    await runAnchorJobs(app.ownerDb, app.deps, tenant.tenantId);

    const first = await compliance(key);
    t.is(first.status, 200, JSON.stringify(first.body));
    t.like(first.data, {
      compliant: true,
      warnings: [],
      integrity_valid: true,
      kill_switch_active: false,
      chain_length: 2, // the invoice, then the closing's own entry
      environment: 'sandbox',
      sub_tenant_id: null,
      last_integrity_check: '2026-05-05T01:30:00.000Z',
      last_daily_closing: {
        id: closing.id,
        date: '2026-05-04',
        closing_hash: closing.closing_hash,
        sub_tenant_id: null,
      },
      last_monthly_closing: null,
      integrity_check: { ran_now: true, valid: true, entries_checked: 2, broken_links: 0, first_broken: null },
      anchors: { pending: 0, overdue: 0, failed: 0, pending_limit_hours: 6 },
    });
    t.like(first.data.chains, [{ sub_tenant_id: null, chain_length: 2, started_at: '2026-05-04T10:00:00.000Z' }]);

    clock.set('2026-05-05T20:00:00Z');
    const again = await compliance(key);
    t.like(again.data, { compliant: true, last_integrity_check: '2026-05-05T01:30:00.000Z' });
    t.false(again.data.integrity_check.ran_now, 'a check of the last 24 hours is reused');
    const forced = await compliance(key, '?verify=true');
    t.like(forced.data.integrity_check, { ran_now: true, checked_at: '2026-05-05T20:00:00.000Z' });
    const history = await getFiscal(app, key, 'integrity/history');
    t.is(history.body.meta.total, 2, 'each check run for a report is recorded');
  },
);

test.serial('a past day left unclosed is a warning, once the midnight run has had its hour', async (t) => {
  const tenant = await tenantFrom('2026-06-10');
  const key = tenant.keys.sk_test;
  clock.set('2026-06-11T00:30:00Z');
  t.true((await compliance(key)).data.compliant, 'within the grace hour the closing may still be running');

  clock.set('2026-06-12T02:00:00Z');
  const late = await compliance(key);
  t.false(late.data.compliant);
  t.deepEqual(codes(late.data), ['DAILY_CLOSING_MISSING']);
  t.like(late.data.warnings[0], {
    sub_tenant_id: null,
    details: { type: 'daily', from: '2026-06-10', to: '2026-06-11', periods: 2, last_closing: null },
  });
  t.regex(late.data.warnings[0].message, /2 day\(s\).*2026-06-10.*2026-06-11/);

  await closeDay(app, key, { date: '2026-06-10' });
  const half = await compliance(key);
  t.like(half.data.warnings[0], { code: 'DAILY_CLOSING_MISSING', details: { from: '2026-06-11', periods: 1 } });
  await closeDay(app, key, { date: '2026-06-11' });
  t.deepEqual(codes((await compliance(key)).data), [], 'every day closed: no warning left');
});

test.serial('a month over and not closed is a warning until the worker closes it', async (t) => {
  const tenant = await tenantFrom('2026-04-30');
  const key = tenant.keys.sk_test;
  clock.set('2026-05-02T02:00:00Z');
  await closeDay(app, key, { date: '2026-05-01' }); // closes April 30 first: only days are closed by hand
  const report = await compliance(key);
  t.deepEqual(codes(report.data), ['MONTHLY_CLOSING_MISSING']);
  t.like(report.data.warnings[0].details, { type: 'monthly', from: '2026-04-01', to: '2026-04-01', periods: 1 });

  await execute(
    closeFiscalChain,
    { tenant_id: tenant.tenantId, environment: 'sandbox', sub_tenant_id: null, date: '2026-05-01' },
    systemCaller(tenant.tenantId, 'sandbox'),
    app.deps,
  );
  const closed = await compliance(key);
  t.deepEqual(codes(closed.data), [], JSON.stringify(closed.data.warnings));
  t.like(closed.data.last_monthly_closing, { date: '2026-04-01', period_end: '2026-04-30' });
});

test.serial('anchors pending for too long, or failed, make the chains non-compliant', async (t) => {
  const tenant = await tenantFrom('2026-07-01');
  const key = tenant.keys.sk_test;
  clock.set('2026-07-02T01:10:00Z');
  await closeDay(app, key, { date: '2026-07-01' });
  clock.set('2026-07-02T05:00:00Z');
  const waiting = await compliance(key);
  t.like(waiting.data, { compliant: true, anchors: { pending: 1, overdue: 0 } });

  clock.set('2026-07-02T07:20:00Z');
  const overdue = await compliance(key);
  t.deepEqual(codes(overdue.data), ['ANCHOR_PENDING']);
  t.like(overdue.data.warnings[0].details, { count: 1, oldest_created_at: '2026-07-02T01:10:00.000Z' });

  // The time-stamp authority refused it: the anchor's one allowed change, made as the worker would.
  const [anchor] = await app
    .ownerDb('fiscal_anchors')
    .where({ tenant_id: tenant.tenantId })
    .update({ status: 'failed', failure_reason: 'rejected: badAlg', completed_at: new Date() })
    .returning('id');
  const failed = await compliance(key);
  t.deepEqual(codes(failed.data), ['ANCHOR_FAILED']);
  t.like(failed.data, { anchors: { pending: 0, failed: 1 } });
  t.like(failed.data.warnings[0].details, { count: 1, first_anchor_id: anchor.id });
});

test.serial('an active kill switch is a warning with its reason', async (t) => {
  const tenant = await tenantFrom('2026-08-03');
  const key = tenant.keys.sk_test;
  const headers = { 'X-Tenant-Key': key };
  clock.set('2026-08-03T12:00:00Z');
  const on = await app.request(
    '/api/v1/tenant/fiscal/kill-switch/activate',
    postJson({ reason: 'Audit en cours' }, headers),
  );
  t.is(on.status, 200, JSON.stringify(await readJson(on)));
  const report = await compliance(key);
  t.like(report.data, { compliant: false, kill_switch_active: true });
  t.deepEqual(codes(report.data), ['KILL_SWITCH_ACTIVE']);
  t.regex(report.data.warnings[0].message, /Audit en cours/);
  await app.request('/api/v1/tenant/fiscal/kill-switch/deactivate', postJson({}, headers));
  t.like((await compliance(key)).data, { compliant: true, kill_switch_active: false });
});

test.serial(
  'an altered entry: a recent check stands until verify=true or a day later, which find the break',
  async (t) => {
    const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
    const key = tenant.keys.sk_test;
    for (const hour of ['09', '10', '11']) {
      await invoiceAt(app, clock, key, `2026-09-01T${hour}:00:00Z`, smallInvoice(10));
    }
    clock.set('2026-09-01T12:00:00Z');
    t.like((await compliance(key)).data, { compliant: true, integrity_check: { ran_now: true } });

    await alterFirstEntry(tenant.tenantId, null);

    clock.set('2026-09-01T12:05:00Z');
    const stale = await compliance(key);
    t.like(stale.data, { integrity_valid: true, integrity_check: { ran_now: false } }, 'the check of 12:00 is reused');
    clock.set('2026-09-01T12:10:00Z');
    const verified = await compliance(key, '?verify=true');
    t.like(verified.data, {
      compliant: false,
      integrity_valid: false,
      integrity_check: { ran_now: true, broken_links: 1 },
    });
    t.like(verified.data.integrity_check.first_broken, { sequence_number: 2, reason: 'previous_hash_mismatch' });
    t.deepEqual(codes(verified.data), ['INTEGRITY_BROKEN']);
    t.like(verified.data.warnings[0], { sub_tenant_id: null, details: { first_broken_sequence: 2 } });

    clock.set('2026-09-02T11:00:00Z');
    const dayLater = await compliance(key);
    t.like(
      dayLater.data,
      { integrity_valid: false, integrity_check: { ran_now: false } },
      'the failed check is the latest',
    );
    clock.set('2026-09-03T13:00:00Z');
    const rerun = await compliance(key);
    t.like(rerun.data, { integrity_valid: false, integrity_check: { ran_now: true } }, 'older than 24 h: run again');
  },
);

test.serial('scope: every chain by default, one sub-tenant on request, only the key’s own', async (t) => {
  const tenant = await tenantFrom('2026-10-05');
  const key = tenant.keys.sk_test;
  const headers = { 'X-Tenant-Key': key };
  const sub = (
    await readJson(
      await app.request('/api/v1/tenant/sub-tenants', postJson({ external_id: 'c', name: 'Shop' }, headers)),
    )
  ).data;
  await invoiceAt(
    app,
    clock,
    key,
    '2026-10-05T11:00:00Z',
    smallInvoice(5),
    `/api/v1/tenant/sub-tenants/${sub.id}/invoices`,
  );
  await invoiceAt(
    app,
    clock,
    key,
    '2026-10-05T11:30:00Z',
    smallInvoice(5),
    `/api/v1/tenant/sub-tenants/${sub.id}/invoices`,
  );
  const all = await compliance(key);
  t.like(all.data, { chain_length: 3, sub_tenant_id: null });
  t.deepEqual(
    all.data.chains.map((c: { sub_tenant_id: string | null; chain_length: number }) => [
      c.sub_tenant_id,
      c.chain_length,
    ]),
    [
      [null, 1],
      [sub.id, 2],
    ],
  );
  const one = await compliance(key, `?sub_tenant_id=${sub.id}`);
  t.like(one.data, { chain_length: 2, sub_tenant_id: sub.id });
  t.is(one.data.chains.length, 1);

  const other = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  await expectRefusal(
    t,
    await app.request(`/api/v1/tenant/fiscal/compliance?sub_tenant_id=${sub.id}`, {
      headers: { 'X-Tenant-Key': other.keys.sk_test },
    }),
    404,
    'NOT_FOUND',
  );
  t.like((await compliance(other.keys.sk_test)).data, { compliant: true, chain_length: 0, chains: [] });
  await expectInvalid(
    t,
    await app.request('/api/v1/tenant/fiscal/compliance?environment=production', { headers }),
    'environment',
  );
  await expectInvalid(t, await app.request('/api/v1/tenant/fiscal/compliance?verify=perhaps', { headers }), 'verify');
  const readless = await insertApiKey(app.ownerDb, tenant.tenantId, {
    name: 'invoices only',
    kind: 'secret',
    environment: 'sandbox',
    scopes: ['invoices'],
  });
  await expectRefusal(
    t,
    await app.request('/api/v1/tenant/fiscal/compliance', { headers: { 'X-Tenant-Key': readless.key } }),
    403,
    'FISCAL_SCOPE_DENIED',
  );
});

test.serial(
  'one sub-tenant’s report counts only its own chain’s breaks, even from a check of every chain',
  async (t) => {
    const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
    const key = tenant.keys.sk_test;
    const headers = { 'X-Tenant-Key': key };
    const sub = (
      await readJson(
        await app.request('/api/v1/tenant/sub-tenants', postJson({ external_id: 'd', name: 'Shop' }, headers)),
      )
    ).data;
    for (const hour of ['09', '10']) {
      await invoiceAt(app, clock, key, `2026-10-20T${hour}:00:00Z`, smallInvoice(10));
      await invoiceAt(
        app,
        clock,
        key,
        `2026-10-20T${hour}:30:00Z`,
        smallInvoice(10),
        `/api/v1/tenant/sub-tenants/${sub.id}/invoices`,
      );
    }
    await alterFirstEntry(tenant.tenantId, null);
    clock.set('2026-10-20T12:00:00Z');
    const all = await compliance(key, '?verify=true');
    t.like(all.data, {
      integrity_valid: false,
      integrity_check: { first_broken: { sequence_number: 2, sub_tenant_id: null } },
    });
    const theirs = await compliance(key, `?sub_tenant_id=${sub.id}`);
    t.like(theirs.data, {
      compliant: true,
      integrity_valid: true,
      integrity_check: { ran_now: false, broken_links: 0, chains_checked: 2 },
    });
  },
);
