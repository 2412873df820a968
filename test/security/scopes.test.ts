import { randomUUID } from 'node:crypto';
import test from 'ava';
import { TENANT_KEY_SCOPES } from '../../domain/tenants/api-key.js';
import { insertApiKey } from '../../domain/tenants/api-key-store.js';
import { up as grantNewScopes } from '../../migrations/20261126000200_grant_full_tenant_keys_new_scopes.js';
import { expectRefusal as refusal } from '../helpers/assertions.js';
import { postJson, readJson } from '../helpers/http.js';
import { PASSWORD, type SeededTenant, seedPlatformTenant } from '../helpers/identities.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * A key never grants more than its creator holds: no route turns a restricted key into a wider one,
 * a sub-tenant's key only makes keys of the same sub-tenant, and the tenant's own settings (keys,
 * profile, webhook, sub-tenants) each need their named scope. Against the running app.
 */
let app: TestApp;
test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0', ALLOW_PRIVATE_URLS: 'true' } });
});
test.after.always(() => app?.close());

const headers = (key: string) => ({ 'X-Tenant-Key': key, 'Content-Type': 'application/json' });
const call = (key: string, method: string, path: string, body?: unknown) =>
  app.request(`/api/v1/tenant${path}`, {
    method,
    headers: headers(key),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const post = (key: string, path: string, body: unknown = {}) => call(key, 'POST', path, body);

/** A secret key of the tenant with exactly these scopes (optionally bound to a sub-tenant). */
async function keyWith(
  tenant: SeededTenant,
  scopes: readonly string[],
  options: { subTenantId?: string; environment?: 'sandbox' | 'production'; expiresAt?: Date } = {},
): Promise<string> {
  const created = await insertApiKey(app.ownerDb, tenant.tenantId, {
    name: `key ${scopes.join(' ')}`,
    kind: 'secret',
    environment: options.environment ?? 'sandbox',
    scopes,
    subTenantId: options.subTenantId ?? null,
    expiresAt: options.expiresAt ?? null,
  });
  return created.key;
}

const rowOf = (key: string) =>
  app
    .ownerDb('api_keys')
    .where({ key_prefix: key.slice(0, 12) })
    .orderBy('created_at', 'desc')
    .first();
const keyCount = async (tenantId: string) =>
  Number((await app.ownerDb('api_keys').where({ tenant_id: tenantId }).count<{ n: string }[]>({ n: '*' }))[0].n);

async function seedSubTenant(tenant: SeededTenant, environment = 'sandbox'): Promise<string> {
  const [row] = await app
    .ownerDb('sub_tenants')
    .insert({ tenant_id: tenant.tenantId, environment, name: 'Client', external_id: `ext-${randomUUID()}` })
    .returning('id');
  return row.id;
}

test('a fiscal:read key obtains no other scope by any route', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const reader = await keyWith(tenant, ['fiscal:read']);
  const before = await keyCount(tenant.tenantId);

  for (const body of [{ scopes: ['fiscal:read', 'fiscal:admin'] }, { scopes: ['fiscal:read'] }, {}]) {
    const refused = await refusal(t, await post(reader, '/auth/keys/secret', body), 403, 'FORBIDDEN');
    t.regex(refused.message, /keys:write/);
  }
  await refusal(t, await post(reader, '/auth/keys/publishable'), 403, 'FORBIDDEN');
  await refusal(t, await post(reader, '/regenerate-key'), 403, 'FORBIDDEN');
  t.is((await rowOf(reader)).status, 'active', 'a refused regeneration revokes nothing');
  // Tenant sign-in takes the e-mail and password, never a key: the key opens no session.
  const login = await app.request(
    '/api/v1/tenant/auth/login',
    postJson({ email: tenant.email, password: reader }, headers(reader)),
  );
  await refusal(t, login, 401, 'INVALID_CREDENTIALS');
  // Nor does it change what the tenant's other credentials hold.
  await refusal(t, await call(reader, 'PUT', '/me', { name: 'Escalated' }), 403, 'FORBIDDEN');
  t.is(await keyCount(tenant.tenantId), before, 'no key was made');
  t.is((await call(reader, 'GET', '/fiscal/entries')).status, 200, 'what it holds still works');
});

test('a key that may make keys makes them within its own scopes only', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const minter = await keyWith(tenant, ['fiscal:read', 'keys:write']);

  for (const scopes of [['fiscal:admin'], ['fiscal:read', 'invoices'], ['keys:write', 'webhooks:write']]) {
    const refused = await refusal(t, await post(minter, '/auth/keys/secret', { scopes }), 403, 'SCOPE_NOT_GRANTED');
    t.regex(refused.message, /does not hold/);
    t.true(refused.scopes_not_held.length > 0);
  }
  const byDefault = await readJson(await post(minter, '/auth/keys/secret'));
  t.deepEqual((await rowOf(byDefault.data.key)).scopes, ['fiscal:read', 'keys:write'], "exactly the creator's");
  const narrower = await readJson(await post(minter, '/auth/keys/secret', { scopes: ['fiscal:read'] }));
  t.deepEqual((await rowOf(narrower.data.key)).scopes, ['fiscal:read']);
  await refusal(t, await post(narrower.data.key, '/auth/keys/secret'), 403, 'FORBIDDEN');

  // A publishable key carries no scope at all and opens no tenant route.
  const publishable = await readJson(await post(minter, '/auth/keys/publishable'));
  t.deepEqual((await rowOf(publishable.data.key)).scopes, []);
  const withPublishable = await app.request('/api/v1/tenant/auth/keys/secret', {
    method: 'POST',
    headers: { 'X-Publishable-Key': publishable.data.key, 'Content-Type': 'application/json' },
    body: '{}',
  });
  t.is(withPublishable.status, 401);

  // Regeneration keeps the scopes of the key it replaces.
  const regenerated = await readJson(await post(minter, '/regenerate-key'));
  t.deepEqual((await rowOf(regenerated.data.key)).scopes, ['fiscal:read', 'keys:write']);
  t.like(await rowOf(minter), { status: 'revoked', revoked_reason: 'regenerated' });
});

test('a key with an end makes and regenerates keys that end with it, never later', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const expiresAt = new Date(Date.now() + 3_600_000);
  const temporary = await keyWith(tenant, ['invoices', 'keys:write'], { expiresAt });
  const made = await readJson(await post(temporary, '/auth/keys/secret'));
  t.is((await rowOf(made.data.key)).expires_at.getTime(), expiresAt.getTime());
  const regenerated = await readJson(await post(made.data.key, '/regenerate-key'));
  t.is((await rowOf(regenerated.data.key)).expires_at.getTime(), expiresAt.getTime());
  const listed = await readJson(await call(regenerated.data.key, 'GET', '/auth/keys'));
  t.true(listed.data.some((k: { prefix: string }) => k.prefix === regenerated.data.key.slice(0, 12)));
});

test("the tenant's login token and full keys hold every tenant scope and grant any of them", async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const login = await readJson(
    await app.request('/api/v1/tenant/auth/login', postJson({ email: tenant.email, password: PASSWORD })),
  );
  const bearer = { Authorization: `Bearer ${login.data.token}`, 'Content-Type': 'application/json' };
  const made = await readJson(
    await app.request('/api/v1/tenant/auth/keys/secret', { method: 'POST', headers: bearer, body: '{}' }),
  );
  t.deepEqual((await rowOf(made.data.key)).scopes, [...TENANT_KEY_SCOPES]);
  const regenerated = await readJson(
    await app.request('/api/v1/tenant/regenerate-key', { method: 'POST', headers: bearer }),
  );
  t.deepEqual((await rowOf(regenerated.data.key)).scopes, [...TENANT_KEY_SCOPES]);
  const admin = await readJson(await post(tenant.keys.sk_test, '/auth/keys/secret', { scopes: ['fiscal:admin'] }));
  t.deepEqual((await rowOf(admin.data.key)).scopes, ['fiscal:admin']);
});

test('a sub-tenant key makes only keys bound to its sub-tenant, in its environment, and sees only those', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const subTenantId = await seedSubTenant(tenant);
  const bound = await keyWith(tenant, ['invoices', 'keys:write'], { subTenantId });

  const made = await readJson(await post(bound, '/auth/keys/secret', { name: 'client key' }));
  t.like(await rowOf(made.data.key), {
    sub_tenant_id: subTenantId,
    environment: 'sandbox',
    scopes: ['invoices', 'keys:write'],
  });
  t.regex(made.data.key, /^sk_test_/);
  await refusal(t, await post(bound, '/auth/keys/secret', { scopes: ['fiscal:read'] }), 403, 'SCOPE_NOT_GRANTED');
  // Publishable keys act for the whole tenant (onboarding): not a sub-tenant's to make.
  await refusal(t, await post(bound, '/auth/keys/publishable'), 403, 'FORBIDDEN');

  const regenerated = await readJson(await post(made.data.key, '/regenerate-key'));
  t.like(await rowOf(regenerated.data.key), { sub_tenant_id: subTenantId, scopes: ['invoices', 'keys:write'] });

  const listed = await readJson(await call(bound, 'GET', '/auth/keys'));
  const prefixes = listed.data.map((k: { prefix: string }) => k.prefix);
  t.true(prefixes.includes(bound.slice(0, 12)));
  t.false(prefixes.includes(tenant.keys.sk_test.slice(0, 12)), "the tenant's own keys are not listed");
  const unbound = await app.ownerDb('api_keys').where({ tenant_id: tenant.tenantId }).whereNull('sub_tenant_id');
  t.is(unbound.length, 4, 'no unbound key was made: only the four seeded ones');
});

test('profile, webhook and sub-tenant writes need their scope (403 without it)', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  // Everything but the tenant-settings scopes (fiscal:admin left out: the migration test upgrades full keys).
  const invoicesOnly = await keyWith(tenant, ['invoices', 'signatures', 'fiscal:read', 'fiscal:write']);
  const profileOnly = await keyWith(tenant, ['profile:write']);
  const subTenantId = await seedSubTenant(tenant);

  const forbidden = async (res: Response, scope: string) =>
    t.regex((await refusal(t, res, 403, 'FORBIDDEN')).message, new RegExp(scope));
  await forbidden(await call(invoicesOnly, 'PUT', '/me', { name: 'x' }), 'profile:write');
  await forbidden(await call(invoicesOnly, 'PUT', '/me', { webhook_url: 'https://hooks.example.com/x' }), 'profile');
  await forbidden(
    await call(profileOnly, 'PUT', '/me', { webhook_url: 'https://hooks.example.com/x' }),
    'webhooks:write',
  );
  await forbidden(await post(invoicesOnly, '/regenerate-webhook-secret'), 'webhooks:write');
  await forbidden(await call(invoicesOnly, 'GET', '/webhook-logs'), 'webhooks:read');
  await forbidden(await post(invoicesOnly, '/sub-tenants', { external_id: 'x', name: 'x' }), 'sub_tenants:write');
  await forbidden(await call(invoicesOnly, 'PUT', `/sub-tenants/${subTenantId}`, { name: 'x' }), 'sub_tenants:write');
  await forbidden(await call(invoicesOnly, 'DELETE', `/sub-tenants/${subTenantId}`), 'sub_tenants:write');
  const tenantRow = await app.ownerDb('tenants').where({ id: tenant.tenantId }).first();
  t.is(tenantRow.name, 'Platform SAS');
  t.is(await app.ownerDb('webhook_endpoints').where({ tenant_id: tenant.tenantId }).first(), undefined);
  t.is((await app.ownerDb('sub_tenants').where({ id: subTenantId }).first()).name, 'Client');

  // With the scope, the same calls go through; reads need none.
  t.is((await call(profileOnly, 'PUT', '/me', { name: 'Renamed' })).status, 200);
  t.is((await call(invoicesOnly, 'GET', '/me')).status, 200);
  t.is((await call(invoicesOnly, 'GET', '/sub-tenants')).status, 200);
  const webhooks = await keyWith(tenant, ['profile:write', 'webhooks:write', 'webhooks:read']);
  t.is((await call(webhooks, 'PUT', '/me', { webhook_url: 'https://hooks.example.com/x' })).status, 200);
  t.is((await post(webhooks, '/regenerate-webhook-secret')).status, 200);
  t.is((await call(webhooks, 'GET', '/webhook-logs')).status, 200);
  const subTenants = await keyWith(tenant, ['sub_tenants:write']);
  t.is((await call(subTenants, 'PUT', `/sub-tenants/${subTenantId}`, { name: 'Renamed' })).status, 200);
});

test('the migration gives full tenant keys the new scopes and leaves restricted keys as they were', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const former = ['invoices', 'signatures', 'fiscal:read', 'fiscal:write', 'fiscal:admin'];
  const full = await keyWith(tenant, former);
  const restricted = await keyWith(tenant, ['invoices', 'fiscal:read']);
  await grantNewScopes(app.ownerDb);
  t.deepEqual((await rowOf(full)).scopes, [...TENANT_KEY_SCOPES]);
  t.deepEqual((await rowOf(restricted)).scopes, ['invoices', 'fiscal:read']);
  await grantNewScopes(app.ownerDb);
  t.deepEqual((await rowOf(full)).scopes, [...TENANT_KEY_SCOPES], 'running it again adds nothing twice');
  t.is((await post(full, '/auth/keys/publishable')).status, 201, 'a full key keeps working as before');
});

test("a narrower key never replays a wider key's stored response (Idempotency-Key)", async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const subTenantId = await seedSubTenant(tenant);
  const idempotent = (key: string) => ({ ...headers(key), 'Idempotency-Key': 'make-a-key' });
  const first = await app.request('/api/v1/tenant/auth/keys/secret', {
    method: 'POST',
    headers: idempotent(tenant.keys.sk_test),
    body: '{}',
  });
  const full = await readJson(first);
  t.is(first.status, 201);
  const again = await app.request('/api/v1/tenant/auth/keys/secret', {
    method: 'POST',
    headers: idempotent(tenant.keys.sk_test),
    body: '{}',
  });
  t.is(again.headers.get('Idempotent-Replayed'), 'true', 'the same credential gets its replay');

  for (const narrower of [
    await keyWith(tenant, ['fiscal:read', 'keys:write']),
    await keyWith(tenant, ['invoices', 'keys:write'], { subTenantId }),
  ]) {
    const res = await app.request('/api/v1/tenant/auth/keys/secret', {
      method: 'POST',
      headers: idempotent(narrower),
      body: '{}',
    });
    const body = await readJson(res);
    t.is(res.headers.get('Idempotent-Replayed'), null);
    t.not(body.data.key, full.data.key, "never the wider key's secret");
    t.deepEqual((await rowOf(body.data.key)).scopes, (await rowOf(narrower)).scopes);
  }
});
