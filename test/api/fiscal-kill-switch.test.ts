import test from 'ava';
import { insertApiKey } from '../../domain/tenants/api-key-store.js';
import { expectRefusal } from '../helpers/assertions.js';
import { postJson, readJson } from '../helpers/http.js';
import { type SeededTenant, seedPlatformTenant } from '../helpers/identities.js';
import { invoiceBody } from '../helpers/invoice-bodies.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
});
test.after.always(() => app?.close());

const BASE = '/api/v1/tenant/fiscal/kill-switch';
const post = (key: string, path: string, body: unknown = {}) =>
  app.request(`${BASE}${path}`, postJson(body, { 'X-Tenant-Key': key }));
const status = async (key: string) =>
  (await readJson(await app.request(`${BASE}/status`, { headers: { 'X-Tenant-Key': key } }))).data;
const createInvoice = (tenant: SeededTenant, path = '/api/v1/tenant/invoices') =>
  app.request(path, postJson(invoiceBody(), { 'X-Tenant-Key': tenant.keys.sk_test }));

test('while active, creation answers 503 on every route and writes nothing; deactivation lets it resume', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const key = tenant.keys.sk_test;
  t.deepEqual(await status(key), { active: false, activated_at: null, activated_by: null, reason: null });

  const on = await post(key, '/activate', { reason: 'Suspected tampering, audit in progress' });
  const body = await readJson(on);
  t.is(on.status, 200, JSON.stringify(body));
  t.like(body.data, { active: true, reason: 'Suspected tampering, audit in progress' });
  t.is(body.data.activated_by.credential_type, 'secret_key');

  for (const path of ['/api/v1/tenant/invoices', '/api/v1/invoices', '/api/v1/sandbox/invoices']) {
    const res = await app.request(path, postJson(invoiceBody(), { 'X-API-Key': key }));
    const refused = await readJson(res);
    t.is(res.status, 503, path);
    // The specification's own word for `error` (its code is also published as FISCAL_KILLSWITCH_ACTIVE).
    t.like(refused, {
      code: 'FISCAL_KILLSWITCH_ACTIVE',
      error_code: 'FISCAL_KILLSWITCH_ACTIVE',
      error: 'fiscal_kill_switch_active',
    });
  }
  const bulk = await app.request(
    '/api/v1/tenant/invoices/bulk',
    postJson({ invoices: [invoiceBody()] }, { 'X-Tenant-Key': key }),
  );
  t.is((await readJson(bulk)).data.results[0].error.code, 'FISCAL_KILLSWITCH_ACTIVE');
  t.is((await app.ownerDb('invoices').where({ tenant_id: tenant.tenantId })).length, 0);
  t.is((await app.ownerDb('fiscal_entries').where({ tenant_id: tenant.tenantId })).length, 0);

  // Production has its own switch.
  await app.ownerDb('balances').where({ tenant_id: tenant.tenantId }).update({ amount: '1.00' });
  const live = await app.request(
    '/api/v1/tenant/invoices',
    postJson(invoiceBody(), { 'X-Tenant-Key': tenant.keys.sk_live }),
  );
  t.is(live.status, 201);

  await expectRefusal(t, await post(key, '/activate', { reason: 'again' }), 409, 'INVALID_STATE');
  const off = await post(key, '/deactivate', { reason: 'Audit closed' });
  t.is(off.status, 200);
  t.like((await readJson(off)).data, { active: false });
  t.is((await createInvoice(tenant)).status, 201);

  const trail = await app
    .ownerDb('audit_entries')
    .where({ entity_type: 'fiscal_kill_switch', entity_id: tenant.tenantId })
    .orderBy('sequence_number');
  t.deepEqual(
    trail.map((e) => [e.action, e.details.reason]),
    [
      ['fiscal.kill_switch.activated', 'Suspected tampering, audit in progress'],
      ['fiscal.kill_switch.deactivated', 'Audit closed'],
    ],
  );
});

test('activate needs a reason; the switch needs fiscal:admin, its status fiscal:read', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const noReason = await post(tenant.keys.sk_test, '/activate', {});
  t.is(noReason.status, 422);
  t.truthy((await readJson(noReason)).errors.reason);

  const reader = await insertApiKey(app.ownerDb, tenant.tenantId, {
    name: 'reader',
    kind: 'secret',
    environment: 'sandbox',
    scopes: ['invoices', 'fiscal:read'],
  });
  t.is((await app.request(`${BASE}/status`, { headers: { 'X-Tenant-Key': reader.key } })).status, 200);
  await expectRefusal(t, await post(reader.key, '/activate', { reason: 'x' }), 403, 'FISCAL_SCOPE_DENIED');
  t.false((await status(tenant.keys.sk_test)).active);
});

test("secret keys made through the API carry the scopes asked for, the creator's by default, never more", async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const make = async (body: unknown) => {
    const res = await app.request(
      '/api/v1/tenant/auth/keys/secret',
      postJson(body, { 'X-Tenant-Key': tenant.keys.sk_test }),
    );
    const created = await readJson(res);
    t.is(res.status, 201, JSON.stringify(created));
    return created.data.key as string;
  };
  const invoicesOnly = await make({ name: 'billing', scopes: ['invoices'] });
  const reader = await make({ scopes: ['fiscal:read'] });
  const everything = await make({});
  const scopesOf = async (key: string) =>
    (
      await app
        .ownerDb('api_keys')
        .where({ key_prefix: key.slice(0, 12), tenant_id: tenant.tenantId })
        .first()
    ).scopes;
  t.deepEqual(await scopesOf(everything), await scopesOf(tenant.keys.sk_test), "the creator's scopes by default");
  // A key that may make keys but holds fiscal:read only cannot make a wider one.
  const minter = await make({ scopes: ['fiscal:read', 'keys:write'] });
  const wider = await app.request(
    '/api/v1/tenant/auth/keys/secret',
    postJson({ scopes: ['fiscal:admin'] }, { 'X-Tenant-Key': minter }),
  );
  await expectRefusal(t, wider, 403, 'SCOPE_NOT_GRANTED');
  const narrow = await app.request('/api/v1/tenant/auth/keys/secret', postJson({}, { 'X-Tenant-Key': minter }));
  t.deepEqual(await scopesOf((await readJson(narrow)).data.key), ['fiscal:read', 'keys:write']);
  const check = (key: string) => app.request('/api/v1/tenant/fiscal/integrity', { headers: { 'X-Tenant-Key': key } });
  await expectRefusal(t, await check(invoicesOnly), 403, 'FISCAL_SCOPE_DENIED');
  t.is((await check(reader)).status, 200);
  await expectRefusal(t, await post(reader, '/activate', { reason: 'x' }), 403, 'FISCAL_SCOPE_DENIED');
  const readerInvoice = await app.request(
    '/api/v1/tenant/invoices',
    postJson(invoiceBody(), { 'X-Tenant-Key': reader }),
  );
  await expectRefusal(t, readerInvoice, 403, 'FORBIDDEN');
  t.is((await post(everything, '/activate', { reason: 'drill' })).status, 200);
  const bad = await app.request(
    '/api/v1/tenant/auth/keys/secret',
    postJson({ scopes: ['fiscal:everything'] }, { 'X-Tenant-Key': tenant.keys.sk_test }),
  );
  t.is(bad.status, 422);
});
