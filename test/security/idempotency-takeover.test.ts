import test from 'ava';
import { ROUTES } from '../../api/routes/index.js';
import { SCHEMAS } from '../../domain/container.js';
import { idempotencyLeasesOf } from '../../domain/platform/idempotency-leases.js';
import { IDEMPOTENCY_LOCK_MS } from '../../domain/platform/idempotency-store.js';
import { testRoutes, testSchemaRegistry } from '../fixtures/test-routes.js';
import { postJson, readJson } from '../helpers/http.js';
import { waitFor } from '../helpers/processes.js';
import { seedTenant } from '../helpers/seed.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { TestClock, withClock } from '../helpers/test-clock.js';

const clock = new TestClock('2026-11-26T09:00:00Z');
let app: TestApp;
let tenantId: string;

test.before(async () => {
  app = await startTestApp({
    override: (c) => {
      c.register(SCHEMAS, { useValue: testSchemaRegistry() });
      withClock(clock)(c);
    },
    routes: () => [...ROUTES, ...testRoutes],
  });
  tenantId = (await seedTenant(app.ownerDb)).id;
});
test.after.always(() => app?.close());

const order = (extra: Record<string, unknown> = {}) => ({
  tenant_id: tenantId,
  customer_email: 'buyer@example.com',
  lines: [{ description: 'Consulting', quantity: 1 }],
  ...extra,
});
const later = (ms: number) => clock.set(new Date(clock.now().getTime() + ms).toISOString());

test.serial('a request running past the lock period keeps its key: no takeover while it is alive', async (t) => {
  const key = `slow-${Date.now()}`;
  const holder = app.request('/api/test/orders', postJson(order({ delay_ms: 2000 }), { 'Idempotency-Key': key }));
  await waitFor(() => app.ownerDb('idempotency_keys').where({ key, status: 'in_progress' }).first());

  // The lock period passes while the first request still runs; its process renews its claim (the
  // timer's work, run here at the exact moment instead of waiting for the timer).
  later(IDEMPOTENCY_LOCK_MS + 60_000);
  await idempotencyLeasesOf(app.deps).renew();
  const row = await app.ownerDb('idempotency_keys').where({ key }).first();
  t.true(row.locked_until > clock.now(), 'the claim was renewed past the new now');

  const duplicate = await app.request(
    '/api/test/orders',
    postJson(order({ delay_ms: 2000 }), { 'Idempotency-Key': key }),
  );
  t.is(duplicate.status, 409);
  t.is((await readJson(duplicate)).code, 'IDEMPOTENCY_KEY_IN_USE');

  const first = await holder;
  t.is(first.status, 201);
  const replay = await app.request('/api/test/orders', postJson(order({ delay_ms: 2000 }), { 'Idempotency-Key': key }));
  t.is(replay.status, 201);
  t.is(replay.headers.get('idempotent-replayed'), 'true');
  t.deepEqual(await readJson(replay), await readJson(first));
});

test.serial('a claim whose holder is gone (no renewal) is taken over once its lock has passed', async (t) => {
  const key = `orphan-${Date.now()}`;
  const now = clock.now();
  // What a crashed web process leaves behind: a claim nobody renews.
  await app.ownerDb('idempotency_keys').insert({
    scope: 'ip:127.0.0.1',
    tenant_id: null,
    method: 'POST',
    path: '/api/test/orders',
    key,
    request_hash: 'from-the-crashed-request',
    status: 'in_progress',
    locked_until: new Date(now.getTime() + IDEMPOTENCY_LOCK_MS),
    created_at: now,
    expires_at: new Date(now.getTime() + 24 * 3600 * 1000),
  });
  const early = await app.request('/api/test/orders', postJson(order(), { 'Idempotency-Key': key }));
  t.is(early.status, 422, 'within its lock the claim stands (and this body differs)');
  later(IDEMPOTENCY_LOCK_MS + 1000);
  await idempotencyLeasesOf(app.deps).renew(); // renews only what this process holds: not the orphan
  const takeover = await app.request('/api/test/orders', postJson(order(), { 'Idempotency-Key': key }));
  t.is(takeover.status, 201);
  t.is(takeover.headers.get('idempotent-replayed'), null);
});
