import test from 'ava';
import { insertApiKey } from '../../domain/tenants/api-key-store.js';
import { openWebhookSecret } from '../../domain/webhooks/webhook-secret.js';
import { expectRefusal as refusal } from '../helpers/assertions.js';
import { readJson } from '../helpers/http.js';
import { seedPlatformTenant } from '../helpers/identities.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
});
test.after.always(() => app?.close());

const key = (value: string) => ({ 'X-Tenant-Key': value, 'Content-Type': 'application/json' });
const putMe = (value: string, body: unknown) =>
  app.request('/api/v1/tenant/me', { method: 'PUT', headers: key(value), body: JSON.stringify(body) });
const regenerate = (value: string) =>
  app.request('/api/v1/tenant/regenerate-webhook-secret', { method: 'POST', headers: key(value) });
const profileEndpoints = (tenantId: string) =>
  app.ownerDb('webhook_endpoints').where({ tenant_id: tenantId, kind: 'tenant_profile' }).orderBy('created_at');

test('setting webhook_url returns its secret once; the same or a new URL keeps it; null removes it', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const first = await readJson(await putMe(tenant.keys.sk_test, { webhook_url: 'https://hooks.example.com/a' }));
  t.is(first.data.webhook_url, 'https://hooks.example.com/a');
  const secret = first.data.webhook_secret;
  t.regex(secret, /^whsec_[A-Za-z0-9]{32}$/);
  const [row] = await profileEndpoints(tenant.tenantId);
  t.like(row, {
    url: 'https://hooks.example.com/a',
    environment: 'sandbox',
    is_active: true,
    secret_last4: secret.slice(-4),
  });
  t.deepEqual(row.events, ['*']);
  t.is(openWebhookSecret(app.deps.config.appKey!, row.id, row.secret_encrypted), secret);

  const again = await readJson(await putMe(tenant.keys.sk_test, { webhook_url: 'https://hooks.example.com/b' }));
  t.false('webhook_secret' in again.data, 'shown once: a changed URL keeps its secret');
  const rows = await profileEndpoints(tenant.tenantId);
  t.is(rows.length, 1);
  t.is(rows[0].url, 'https://hooks.example.com/b');
  t.is(rows[0].secret_encrypted, row.secret_encrypted);
  const me = await (await app.request('/api/v1/tenant/me', { headers: key(tenant.keys.sk_test) })).text();
  t.false(me.includes(secret), 'GET /tenant/me never shows it');

  await putMe(tenant.keys.sk_test, { webhook_url: null });
  t.truthy((await profileEndpoints(tenant.tenantId))[0].deleted_at);
  await refusal(t, await regenerate(tenant.keys.sk_test), 409, 'INVALID_STATE');
  const fresh = await readJson(await putMe(tenant.keys.sk_test, { webhook_url: 'https://hooks.example.com/c' }));
  t.regex(fresh.data.webhook_secret, /^whsec_/);
  t.not(fresh.data.webhook_secret, secret, 'a URL set again after removal gets a new secret');
});

test('each environment has its own webhook_url and secret, set and read with a key of that environment', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const sandbox = await readJson(await putMe(tenant.keys.sk_test, { webhook_url: 'https://hooks.example.com/test' }));
  const live = await readJson(await putMe(tenant.keys.sk_live, { webhook_url: 'https://hooks.example.com/live' }));
  t.regex(live.data.webhook_secret, /^whsec_/, 'production gets its own secret');
  t.not(live.data.webhook_secret, sandbox.data.webhook_secret);
  const rows = await profileEndpoints(tenant.tenantId);
  t.deepEqual(
    rows.map((r) => [r.environment, r.url]),
    [
      ['sandbox', 'https://hooks.example.com/test'],
      ['production', 'https://hooks.example.com/live'],
    ],
  );
  const me = async (value: string) =>
    (await readJson(await app.request('/api/v1/tenant/me', { headers: key(value) }))).data.webhook_url;
  t.is(await me(tenant.keys.sk_test), 'https://hooks.example.com/test');
  t.is(await me(tenant.keys.sk_live), 'https://hooks.example.com/live');

  await putMe(tenant.keys.sk_test, { webhook_url: null });
  t.is(await me(tenant.keys.sk_test), null);
  t.is(await me(tenant.keys.sk_live), 'https://hooks.example.com/live', 'removing sandbox leaves production');
});

test('POST /tenant/regenerate-webhook-secret: a new secret once, the old one sealed away at once', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const { data } = await readJson(await putMe(tenant.keys.sk_test, { webhook_url: 'https://hooks.example.com/x' }));
  const res = await regenerate(tenant.keys.sk_test);
  t.is(res.status, 200);
  const body = await readJson(res);
  t.regex(body.message, /old secret no longer signs/);
  t.is(body.data.webhook_url, 'https://hooks.example.com/x');
  t.regex(body.data.webhook_secret, /^whsec_[A-Za-z0-9]{32}$/);
  t.not(body.data.webhook_secret, data.webhook_secret);
  const [row] = await profileEndpoints(tenant.tenantId);
  t.is(openWebhookSecret(app.deps.config.appKey!, row.id, row.secret_encrypted), body.data.webhook_secret);

  const [sub] = await app
    .ownerDb('sub_tenants')
    .insert({ tenant_id: tenant.tenantId, environment: 'sandbox', name: 'Sub' })
    .returning('id');
  const subKey = await insertApiKey(app.ownerDb, tenant.tenantId, {
    name: 'sub',
    kind: 'secret',
    environment: 'sandbox',
    scopes: ['invoices'],
    subTenantId: sub.id,
  });
  await refusal(t, await regenerate(subKey.key), 403, 'FORBIDDEN');
});
