import test from 'ava';
import { closedThrough } from '../../domain/ledger/fiscal-period.js';
import { itemsFor } from '../helpers/credit-notes.js';
import { closeDay, invoiceAt } from '../helpers/fiscal-closings.js';
import { postJson, readJson } from '../helpers/http.js';
import { seedPlatformTenant, seedSubTenant } from '../helpers/identities.js';
import { invoiceBody } from '../helpers/invoices.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { TestClock, withClock } from '../helpers/test-clock.js';

/**
 * Creation checks the fiscal period: once a closing covers a day of a chain (tenant, sub-tenant,
 * environment), an invoice or credit note of that chain dated on or before it is refused with 422
 * on `issue_date`, on every creation route, and nothing is written.
 */
const clock = new TestClock('2025-03-10T09:00:00Z');
let app: TestApp;
test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' }, override: withClock(clock) });
});
test.after.always(() => app?.close());

const CLOSED = '2025-03-10';
const OPEN = '2025-03-11';
const dated = (day: string, overrides: Record<string, unknown> = {}) =>
  invoiceBody({
    issue_date: day,
    due_date: day,
    invoice_number: `FP-${day}-${Math.random().toString(36).slice(2, 10)}`,
    ...overrides,
  });
const post = (path: string, body: unknown, key: string) => app.request(path, postJson(body, { 'X-API-Key': key }));

async function expectClosedPeriod(t: import('ava').ExecutionContext, res: Response, through = CLOSED) {
  const body = await readJson(res);
  t.is(res.status, 422, JSON.stringify(body));
  t.deepEqual(Object.keys(body.errors), ['issue_date']);
  t.regex(body.errors.issue_date[0], new RegExp(`closed fiscal period.*closed through ${through}`));
}

test.serial('invoices and credit notes dated in a closed period are refused on every creation route', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const key = tenant.keys.sk_test;
  const subTenantId = await seedSubTenant(app.ownerDb, tenant.tenantId);
  clock.set('2025-03-10T09:00:00Z');
  const own = await invoiceAt(app, clock, key, '2025-03-10T09:00:00Z', invoiceBody(), '/api/v1/tenant/invoices');
  const sub = await invoiceAt(
    app,
    clock,
    key,
    '2025-03-10T10:00:00Z',
    invoiceBody(),
    `/api/v1/tenant/sub-tenants/${subTenantId}/invoices`,
  );

  clock.set('2025-03-11T08:00:00Z');
  // only the sub-tenant's chain is closed: the tenant's own chain still takes 2025-03-10
  const closed = await closeDay(app, key, { sub_tenant_id: subTenantId, date: CLOSED });
  t.is(closed.status, 200, JSON.stringify(closed.body));
  const count = async () =>
    Number((await app.ownerDb('invoices').where({ tenant_id: tenant.tenantId }).count())[0].count);
  const before = await count();
  await expectClosedPeriod(t, await post(`/api/v1/tenant/sub-tenants/${subTenantId}/invoices`, dated(CLOSED), key));
  await expectClosedPeriod(
    t,
    await post(
      `/api/v1/tenant/sub-tenants/${subTenantId}/credit-notes`,
      { invoice_id: sub.id, reason: 'Remise', items: itemsFor(sub, 0.5), issue_date: CLOSED },
      key,
    ),
  );
  t.is(await count(), before, 'nothing written');
  t.is((await post('/api/v1/tenant/invoices', dated(CLOSED), key)).status, 201);

  const tenantClosed = await closeDay(app, key, { date: CLOSED });
  t.is(tenantClosed.status, 200, JSON.stringify(tenantClosed.body));
  await expectClosedPeriod(t, await post('/api/v1/tenant/invoices', dated(CLOSED), key));
  await expectClosedPeriod(t, await post('/api/v1/tenant/invoices', dated('2024-12-31'), key));
  await expectClosedPeriod(t, await post('/api/v1/sandbox/invoices', dated(CLOSED), key));
  await expectClosedPeriod(
    t,
    await post(
      '/api/v1/credit-notes',
      { invoice_id: own.id, reason: 'Remise', items: itemsFor(own, 0.5), issue_date: CLOSED },
      key,
    ),
  );
  const bulk = await readJson(
    await post('/api/v1/tenant/invoices/bulk', { invoices: [dated(CLOSED), dated(OPEN)] }, key),
  );
  t.like(bulk, { data: { created: 1, failed: 1 } });
  t.like(bulk.data.results[0], { index: 0, status: 'failed', error: { code: 'VALIDATION_ERROR' } });
  t.deepEqual(Object.keys(bulk.data.results[0].error.errors), ['issue_date']);

  // the next day is open on every route
  t.is((await post('/api/v1/tenant/invoices', dated(OPEN), key)).status, 201);
  t.is((await post(`/api/v1/tenant/sub-tenants/${subTenantId}/invoices`, dated(OPEN), key)).status, 201);
  t.is((await post('/api/v1/sandbox/invoices', dated(OPEN), key)).status, 201);
  const note = await post(
    `/api/v1/tenant/sub-tenants/${subTenantId}/credit-notes`,
    { invoice_id: sub.id, reason: 'Remise', items: itemsFor(sub, 0.5) },
    key,
  );
  t.is(note.status, 201, 'a credit note left undated is dated today, in the open period');
});

test.serial('a closing waits for the creations that read the closed periods, so none slips into it', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const key = tenant.keys.sk_test;
  await invoiceAt(app, clock, key, '2025-03-12T09:00:00Z', invoiceBody(), '/api/v1/tenant/invoices');
  clock.set('2025-03-13T08:00:00Z');
  const chain = { tenantId: tenant.tenantId, environment: 'sandbox' as const, subTenantId: null };
  const creation = await app.ownerDb.transaction();
  t.is(await closedThrough(creation, chain), null, 'nothing closed yet: 2025-03-12 is open');
  let closedAt = 0;
  const closing = closeDay(app, key, { date: '2025-03-12' }).then((r) => {
    closedAt = Date.now();
    return r;
  });
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.is(closedAt, 0, 'the closing waits while the creation is in flight');
  const committedAt = Date.now();
  await creation.commit();
  const closed = await closing;
  t.is(closed.status, 200, JSON.stringify(closed.body));
  t.true(closedAt >= committedAt);
  await expectClosedPeriod(t, await post('/api/v1/tenant/invoices', dated('2025-03-12'), key), '2025-03-12');
});
