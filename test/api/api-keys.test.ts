import test from 'ava';
import { issueAccessToken } from '../../domain/auth/access-token-store.js';
import { hashApiKey } from '../../domain/tenants/api-key.js';
import { expectInvalid as invalid, expectRefusal as refusal } from '../helpers/assertions.js';
import { postJson, readJson } from '../helpers/http.js';
import {
  type SeededTenant,
  type SeededUser,
  seedPlatformTenant,
  seedUser,
  seedUserKey,
  seedVerifiedCompany,
} from '../helpers/identities.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let tenant: SeededTenant;

test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
  tenant = await seedPlatformTenant(app.ownerDb);
});
test.after.always(() => app?.close());

const bearer = (user: SeededUser) => ({ Authorization: `Bearer ${user.token}` });
const create = (user: SeededUser, body: unknown) => app.request('/api/v1/api-keys', postJson(body, bearer(user)));
const get = (user: SeededUser, path: string) => app.request(`/api/v1/api-keys${path}`, { headers: bearer(user) });
const revoke = (user: SeededUser, id: string, query = '') =>
  app.request(`/api/v1/api-keys/${id}${query}`, { method: 'DELETE', headers: bearer(user) });
const balanceWith = (key: string) => app.request('/api/v1/balance', { headers: { 'X-API-Key': key } });

async function createdKey(user: SeededUser, body: Record<string, unknown> = {}) {
  const res = await create(user, { name: 'CI', environment: 'sandbox', ...body });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${await res.text()}`);
  return (await readJson(res)).data as { id: string; key: string; [field: string]: unknown };
}

test('POST creates a key: 201 {message, data + key, warning}; the key is shown once and only its hash is kept', async (t) => {
  const user = await seedUser(app.ownerDb);
  const res = await create(user, { name: 'Production ERP', environment: 'sandbox' });
  t.is(res.status, 201);
  const text = await res.text();
  const body = JSON.parse(text);
  t.is(typeof body.message, 'string');
  t.regex(body.warning, /only once/);
  t.regex(body.data.key, /^sk_test_[a-zA-Z0-9]{32}$/);
  t.like(body.data, {
    name: 'Production ERP',
    company_id: null,
    environment: 'sandbox',
    scopes: ['invoices', 'signatures'],
    expires_at: null,
    status: 'active',
    key_prefix: body.data.key.slice(0, 12),
    last_four: body.data.key.slice(-4),
    last_used_at: null,
    last_used_ip: null,
    revoked_at: null,
    revoked_reason: null,
  });
  t.false(text.includes('hash'));
  const row = await app.ownerDb('api_keys').where({ id: body.data.id }).first();
  t.is(row.key_hash, hashApiKey(body.data.key));
  t.is(row.user_id, user.userId);
  t.is(row.tenant_id, user.tenantId);

  // The key works at once; reading it back never shows it again.
  t.is((await balanceWith(body.data.key)).status, 200);
  const read = await readJson(await get(user, `/${body.data.id}`));
  t.is(read.data.key, undefined);
  t.is(read.data.id, body.data.id);
  t.truthy(read.data.last_used_at);
});

test('a production key restricted to one company, with scopes and an expiry', async (t) => {
  const user = await seedUser(app.ownerDb);
  const companyId = await seedVerifiedCompany(app.ownerDb, user.tenantId);
  const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
  const key = await createdKey(user, {
    environment: 'production',
    company_id: companyId,
    scopes: ['invoices'],
    expires_at: expiresAt,
  });
  t.regex(key.key, /^sk_live_/);
  t.like(key, { company_id: companyId, scopes: ['invoices'], expires_at: expiresAt, environment: 'production' });
  t.is((await balanceWith(key.key)).status, 200, 'the company KYC is complete, so the live key works');
});

test('company_id must be one of your live companies: 422 company_id', async (t) => {
  const user = await seedUser(app.ownerDb);
  const other = await seedUser(app.ownerDb);
  const theirs = await seedVerifiedCompany(app.ownerDb, other.tenantId);
  const deleted = await seedVerifiedCompany(app.ownerDb, user.tenantId);
  await app.ownerDb('companies').where({ id: deleted }).update({ deleted_at: new Date() });
  for (const companyId of [theirs, deleted, '00000000-0000-4000-8000-000000000000']) {
    await invalid(t, await create(user, { name: 'x', environment: 'sandbox', company_id: companyId }), 'company_id');
  }
  t.is(await keyCount(user), 0, 'nothing was written');
});

const keyCount = async (user: SeededUser) =>
  Number((await app.ownerDb('api_keys').where({ user_id: user.userId }).count({ n: '*' }))[0].n);

test('creation input is validated: 422 naming each field', async (t) => {
  const user = await seedUser(app.ownerDb);
  const missing = await invalid(t, await create(user, {}), 'name');
  t.truthy(missing.errors.environment);
  await invalid(t, await create(user, { name: 'x', environment: 'staging' }), 'environment');
  await invalid(t, await create(user, { name: '', environment: 'sandbox' }), 'name');
  await invalid(t, await create(user, { name: 'x', environment: 'sandbox', scopes: ['fiscal:admin'] }), 'scopes.0');
  await invalid(
    t,
    await create(user, { name: 'x', environment: 'sandbox', scopes: ['invoices', 'invoices'] }),
    'scopes',
  );
  await invalid(t, await create(user, { name: 'x', environment: 'sandbox', scopes: [] }), 'scopes');
  await invalid(t, await create(user, { name: 'x', environment: 'sandbox', company_id: 'acme' }), 'company_id');
  await invalid(t, await create(user, { name: 'x', environment: 'sandbox', expires_at: 'tomorrow' }), 'expires_at');
  const past = new Date(Date.now() - 60_000).toISOString();
  const expired = await invalid(
    t,
    await create(user, { name: 'x', environment: 'sandbox', expires_at: past }),
    'expires_at',
  );
  t.deepEqual(expired.errors.expires_at, ['must be in the future']);
  await invalid(t, await create(user, { name: 'x', environment: 'sandbox', key_hash: 'x' }), 'key_hash');
  t.is(await keyCount(user), 0);
});

test('GET lists your keys only, newest first, with filters and pagination meta', async (t) => {
  const user = await seedUser(app.ownerDb);
  const other = await seedUser(app.ownerDb);
  await createdKey(other);
  const companyId = await seedVerifiedCompany(app.ownerDb, user.tenantId);
  const first = await createdKey(user, { name: 'first' });
  const live = await createdKey(user, { name: 'live', environment: 'production', company_id: companyId });
  const third = await createdKey(user, { name: 'third' });
  await revoke(user, first.id);
  await app
    .ownerDb('api_keys')
    .where({ id: third.id })
    .update({ expires_at: new Date(Date.now() - 1000) });

  const all = await readJson(await get(user, ''));
  t.deepEqual(
    all.data.map((k: { name: string }) => k.name),
    ['third', 'live', 'first'],
  );
  t.deepEqual(all.meta, { current_page: 1, last_page: 1, per_page: 25, total: 3 });

  const names = async (query: string) =>
    (await readJson(await get(user, query))).data.map((k: { name: string }) => k.name);
  t.deepEqual(await names('?environment=production'), ['live']);
  t.deepEqual(await names(`?company_id=${companyId}`), ['live']);
  t.deepEqual(await names('?status=active'), ['live']);
  t.deepEqual(await names('?status=revoked'), ['first']);
  t.deepEqual(await names('?status=expired'), ['third']);

  const page = await readJson(await get(user, '?per_page=2&page=2'));
  t.deepEqual(page.meta, { current_page: 2, last_page: 2, per_page: 2, total: 3 });
  t.deepEqual(
    page.data.map((k: { name: string }) => k.name),
    ['first'],
  );
  t.is(live.status, 'active');
  await invalid(t, await get(user, '?status=paused'), 'status');
  await invalid(t, await get(user, '?per_page=101'), 'per_page');
});

test('an expired key shows status expired and is refused like a revoked one', async (t) => {
  const user = await seedUser(app.ownerDb);
  const key = await createdKey(user);
  await app
    .ownerDb('api_keys')
    .where({ id: key.id })
    .update({ expires_at: new Date(Date.now() - 1000) });
  t.is((await readJson(await get(user, `/${key.id}`))).data.status, 'expired');
  await refusal(t, await balanceWith(key.key), 401, 'API_KEY_REVOKED');
});

test("GET /{id}: unknown id, another user's key or a malformed id is 404", async (t) => {
  const user = await seedUser(app.ownerDb);
  const other = await seedUser(app.ownerDb);
  const theirs = await createdKey(other);
  await refusal(t, await get(user, `/${theirs.id}`), 404, 'NOT_FOUND');
  await refusal(t, await get(user, '/00000000-0000-4000-8000-000000000000'), 404, 'NOT_FOUND');
  await refusal(t, await get(user, '/not-a-uuid'), 404, 'NOT_FOUND');
});

test('DELETE revokes at once and for good; the next request with the key is 401 API_KEY_REVOKED', async (t) => {
  const user = await seedUser(app.ownerDb);
  const key = await createdKey(user);
  t.is((await balanceWith(key.key)).status, 200);

  const res = await revoke(user, key.id, '?reason=Leaked%20in%20a%20log');
  t.is(res.status, 200);
  const body = await readJson(res);
  t.is(body.message, 'API key revoked.');
  t.like(body.data, { id: key.id, status: 'revoked', revoked_reason: 'Leaked in a log' });
  t.truthy(body.data.revoked_at);
  await refusal(t, await balanceWith(key.key), 401, 'API_KEY_REVOKED');

  // Idempotent: a second DELETE answers 200 with the key unchanged.
  const again = await revoke(user, key.id, '?reason=other');
  t.is(again.status, 200);
  const second = await readJson(again);
  t.regex(second.message, /already revoked/);
  t.deepEqual(second.data, body.data);
});

test("DELETE of another user's key is 404 and leaves it working", async (t) => {
  const user = await seedUser(app.ownerDb);
  const other = await seedUser(app.ownerDb);
  const theirs = await createdKey(other);
  await refusal(t, await revoke(user, theirs.id), 404, 'NOT_FOUND');
  t.is((await balanceWith(theirs.key)).status, 200);
  await refusal(t, await revoke(user, '00000000-0000-4000-8000-000000000000'), 404, 'NOT_FOUND');
});

test('the dashboard session cookie works too', async (t) => {
  const user = await seedUser(app.ownerDb);
  await createdKey(user);
  const session = await issueAccessToken(app.ownerDb, {
    tenantId: user.tenantId,
    userId: user.userId,
    kind: 'session',
    now: new Date(),
  });
  const res = await app.request('/api/v1/api-keys', { headers: { Cookie: `einvoice_session=${session.token}` } });
  t.is(res.status, 200);
  t.is((await readJson(res)).meta.total, 1);
});

test('API keys cannot manage API keys; tenant credentials are refused; no credentials is 401', async (t) => {
  const user = await seedUser(app.ownerDb);
  const userKey = await seedUserKey(app.ownerDb, user);
  await refusal(
    t,
    await app.request('/api/v1/api-keys', { headers: { 'X-API-Key': userKey } }),
    401,
    'UNAUTHENTICATED',
  );
  await refusal(
    t,
    await app.request('/api/v1/api-keys', { headers: { Authorization: `Bearer ${userKey}` } }),
    401,
    'UNAUTHENTICATED',
  );
  await refusal(
    t,
    await app.request('/api/v1/api-keys', { headers: { 'X-Tenant-Key': tenant.keys.sk_test } }),
    401,
    'UNAUTHENTICATED',
  );
  // A tenant's login token is a bearer token, so it authenticates, and the caller check refuses it.
  const tenantToken = await issueAccessToken(app.ownerDb, {
    tenantId: tenant.tenantId,
    userId: null,
    kind: 'tenant',
    environment: 'sandbox',
    now: new Date(),
  });
  const headers = { Authorization: `Bearer ${tenantToken.token}` };
  await refusal(t, await app.request('/api/v1/api-keys', { headers }), 403, 'FORBIDDEN');
  await refusal(
    t,
    await app.request('/api/v1/api-keys', postJson({ name: 'x', environment: 'sandbox' }, headers)),
    403,
    'FORBIDDEN',
  );
  await refusal(t, await app.request('/api/v1/api-keys'), 401, 'UNAUTHENTICATED');
  t.is(Number((await app.ownerDb('api_keys').where({ tenant_id: tenant.tenantId }).count({ n: '*' }))[0].n), 4);
});
