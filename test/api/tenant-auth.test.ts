import { randomUUID } from 'node:crypto';
import test from 'ava';
import { issueAccessToken } from '../../domain/auth/access-token-store.js';
import { LOGIN_FAILURES_PER_HOUR } from '../../domain/auth/login-throttle.js';
import { verifyPassword } from '../../domain/users/password.js';
import { expectInvalid as invalid, expectRefusal as refusal } from '../helpers/assertions.js';
import { postJson, readJson } from '../helpers/http.js';
import { type SeededTenant, seedPlatformTenant, seedUser, seedUserKey } from '../helpers/identities.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let partner: SeededTenant;

test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
  partner = await seedPlatformTenant(app.ownerDb, { partner: true, kyb: 'verified' });
});
test.after.always(() => app?.close());

const VALID_SIRET = '73282932000074';
const PASSWORD = 'a long enough password';

const registration = (overrides: Record<string, unknown> = {}) => ({
  publishable_key: partner.keys.pk_test,
  name: 'Client Platform',
  email: `client-${randomUUID()}@example.com`,
  password: PASSWORD,
  siret: VALID_SIRET,
  ...overrides,
});
const register = (body: unknown) => app.request('/api/v1/tenant/auth/register', postJson(body));
const login = (body: unknown) => app.request('/api/v1/tenant/auth/login', postJson(body));
const tenantGet = (path: string, headers: Record<string, string>) =>
  app.request(`/api/v1/tenant/auth${path}`, { headers });
const tenantPost = (path: string, headers: Record<string, string>) =>
  app.request(`/api/v1/tenant/auth${path}`, postJson({}, headers));
const tenantsWithEmail = async (email: string) =>
  Number((await app.ownerDb('tenants').whereRaw('lower(email) = lower(?)', [email]).count({ n: '*' }))[0].n);

test("register: a partner's publishable key creates a platform tenant under it, with balance, keys and a hashed password", async (t) => {
  const body = registration();
  const res = await register(body);
  t.is(res.status, 201);
  const answer = await readJson(res);
  t.is(typeof answer.message, 'string');
  t.is(answer.data.environment, 'sandbox');
  t.regex(answer.data.api_key, /^sk_test_[a-zA-Z0-9]{32}$/);
  const tenantId = answer.data.tenant_id;

  const row = await app.ownerDb('tenants').where({ id: tenantId }).first();
  t.like(row, {
    kind: 'platform',
    parent_tenant_id: partner.tenantId,
    name: 'Client Platform',
    email: body.email,
    siret: VALID_SIRET,
    kyb_status: 'pending',
    is_partner: false,
    is_active: true,
  });
  t.not(row.password_hash, PASSWORD);
  t.true(await verifyPassword(PASSWORD, row.password_hash));
  t.truthy(await app.ownerDb('balances').where({ tenant_id: tenantId }).first());
  const keys = await app.ownerDb('api_keys').where({ tenant_id: tenantId }).orderBy(['kind', 'environment']);
  t.deepEqual(
    keys.map((k) => `${k.kind}:${k.environment}`),
    ['publishable:production', 'publishable:sandbox', 'secret:production', 'secret:sandbox'],
  );

  // The returned key is the new tenant's sandbox secret key.
  const me = await readJson(await tenantGet('/me', { 'X-Tenant-Key': answer.data.api_key }));
  t.like(me.data, { id: tenantId, email: body.email, kyb_status: 'pending', environment: 'sandbox' });
});

test('register with a production publishable key returns the production secret key (refused until KYB is verified)', async (t) => {
  const res = await register(registration({ publishable_key: partner.keys.pk_live }));
  t.is(res.status, 201);
  const { data } = await readJson(res);
  t.is(data.environment, 'production');
  t.regex(data.api_key, /^sk_live_/);
  await refusal(t, await tenantGet('/me', { 'X-Tenant-Key': data.api_key }), 403, 'KYC_REQUIRED');
});

test('register: a malformed, unknown or revoked publishable key is 401 with the key error code', async (t) => {
  const revoked = await seedPlatformTenant(app.ownerDb, { partner: true });
  await app.ownerDb('api_keys').where({ tenant_id: revoked.tenantId }).update({ status: 'revoked' });
  const cases: [string, string][] = [
    ['pk_test_short', 'INVALID_API_KEY_FORMAT'],
    [partner.keys.sk_test, 'INVALID_API_KEY_FORMAT'],
    [`pk_test_${'Q'.repeat(32)}`, 'API_KEY_INVALID'],
    [revoked.keys.pk_test, 'API_KEY_REVOKED'],
  ];
  for (const [key, code] of cases) {
    const body = registration({ publishable_key: key });
    await refusal(t, await register(body), 401, code);
    t.is(await tenantsWithEmail(body.email), 0);
  }
});

test('register: a publishable key of a tenant that is not a partner is 403 FORBIDDEN', async (t) => {
  const plain = await seedPlatformTenant(app.ownerDb, { partner: false });
  const body = registration({ publishable_key: plain.keys.pk_test });
  await refusal(t, await register(body), 403, 'FORBIDDEN');
  t.is(await tenantsWithEmail(body.email), 0);
});

test('register: an e-mail already in use is 409 CONFLICT (case-insensitive), and nothing is written', async (t) => {
  const first = registration();
  t.is((await register(first)).status, 201);
  await refusal(t, await register(registration({ email: first.email.toUpperCase() })), 409, 'CONFLICT');
  await refusal(t, await register(registration({ email: partner.email })), 409, 'CONFLICT');
  t.is(await tenantsWithEmail(first.email), 1);
  t.is(await tenantsWithEmail(partner.email), 1);
});

test('register: validation is 422 naming the field (SIRET Luhn, password policy, e-mail, missing fields)', async (t) => {
  const badSiret = registration({ siret: '73282932000075' });
  await invalid(t, await register(badSiret), 'siret');
  t.is(await tenantsWithEmail(badSiret.email), 0);
  await invalid(t, await register(registration({ siret: '1234' })), 'siret');
  await invalid(t, await register(registration({ password: 'too short' })), 'password');
  await invalid(t, await register(registration({ email: 'not-an-email' })), 'email');
  await invalid(t, await register(registration({ is_partner: true })), 'is_partner');
  for (const field of ['publishable_key', 'name', 'email', 'password', 'siret']) {
    const body: Record<string, unknown> = registration();
    delete body[field];
    await invalid(t, await register(body), field);
  }
});

test('login: 200 {data: {token, tenant_id, expires_at}}; the token works on tenant routes as Bearer', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'pending' });
  const res = await login({ email: tenant.email.toUpperCase(), password: tenant.password });
  t.is(res.status, 200);
  const { data } = await readJson(res);
  t.regex(data.token, /^at_/);
  t.is(data.tenant_id, tenant.tenantId);
  t.is(data.environment, 'sandbox');
  const hours = (Date.parse(data.expires_at) - Date.now()) / 3_600_000;
  t.true(hours > 23 && hours <= 24);
  const me = await readJson(await tenantGet('/me', { Authorization: `Bearer ${data.token}` }));
  t.like(me.data, { id: tenant.tenantId, environment: 'sandbox' });
  const stored = await app.ownerDb('access_tokens').where({ tenant_id: tenant.tenantId }).first();
  t.like(stored, { kind: 'tenant', environment: 'sandbox', user_id: null });
  t.not(stored.token_hash, data.token);
});

test('login to production needs verified KYB: 403 KYC_REQUIRED, else a production token', async (t) => {
  const pending = await seedPlatformTenant(app.ownerDb, { kyb: 'pending' });
  await refusal(
    t,
    await login({ email: pending.email, password: pending.password, environment: 'production' }),
    403,
    'KYC_REQUIRED',
  );
  const verified = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const res = await login({ email: verified.email, password: verified.password, environment: 'production' });
  t.is(res.status, 200);
  const { data } = await readJson(res);
  const me = await readJson(await tenantGet('/me', { Authorization: `Bearer ${data.token}` }));
  t.is(me.data.environment, 'production');
  await invalid(
    t,
    await login({ email: verified.email, password: verified.password, environment: 'live' }),
    'environment',
  );
});

test('login: a wrong password or an unknown e-mail is 401 INVALID_CREDENTIALS; a disabled tenant 403', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const wrong = await refusal(
    t,
    await login({ email: tenant.email, password: 'wrong password!' }),
    401,
    'INVALID_CREDENTIALS',
  );
  const unknown = await refusal(
    t,
    await login({ email: `nobody-${randomUUID()}@example.com`, password: 'whatever' }),
    401,
    'INVALID_CREDENTIALS',
  );
  t.is(wrong.message, unknown.message, 'an unknown e-mail is not told apart from a wrong password');
  const disabled = await seedPlatformTenant(app.ownerDb, { active: false });
  await refusal(t, await login({ email: disabled.email, password: disabled.password }), 403, 'TENANT_DISABLED');
  await invalid(t, await login({ email: tenant.email }), 'password');
  t.is(Number((await app.ownerDb('access_tokens').where({ tenant_id: tenant.tenantId }).count({ n: '*' }))[0].n), 0);
});

test.serial('login: repeated failures are throttled with 429, even with the right password', async (t) => {
  // The per-IP limit of the sign-in routes is raised out of the way: this is about the throttle.
  const throttled = await startTestApp({
    env: { RATE_LIMIT_SCALE: '1', RATE_LIMITS: JSON.stringify({ credentials: { per_minute: 1000 } }) },
  });
  try {
    const tenant = await seedPlatformTenant(throttled.ownerDb);
    const attempt = (password: string, email = tenant.email) =>
      throttled.request('/api/v1/tenant/auth/login', postJson({ email, password }));
    for (let i = 0; i < LOGIN_FAILURES_PER_HOUR; i++) {
      await refusal(t, await attempt('wrong password!'), 401, 'INVALID_CREDENTIALS');
    }
    const blocked = await attempt(tenant.password);
    const body = await refusal(t, blocked, 429, 'RATE_LIMIT_EXCEEDED');
    t.truthy(Number(blocked.headers.get('Retry-After')) > 0);
    t.is(body.limit, LOGIN_FAILURES_PER_HOUR);
    // Another tenant's e-mail from the same address is not blocked.
    const other = await seedPlatformTenant(throttled.ownerDb);
    t.is((await attempt(other.password, other.email)).status, 200);
  } finally {
    await throttled.close();
  }
});

test('logout with a tenant token revokes it at once; with a secret key there is nothing to end', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const { data } = await readJson(await login({ email: tenant.email, password: tenant.password }));
  const headers = { Authorization: `Bearer ${data.token}` };
  const res = await tenantPost('/logout', headers);
  t.is(res.status, 200);
  const body = await readJson(res);
  t.deepEqual(Object.keys(body), ['message']);
  t.regex(body.message, /revoked/);
  await refusal(t, await tenantGet('/me', headers), 401, 'UNAUTHENTICATED');

  const withKey = await readJson(await tenantPost('/logout', { 'X-Tenant-Key': tenant.keys.sk_test }));
  t.regex(withKey.message, /Nothing to end/);
  t.is((await tenantGet('/me', { 'X-Tenant-Key': tenant.keys.sk_test })).status, 200);
});

test('me: the tenant account with the environment of the credential', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const res = await tenantGet('/me', { 'X-Tenant-Key': tenant.keys.sk_live });
  t.is(res.status, 200);
  const { data } = await readJson(res);
  t.deepEqual(Object.keys(data).sort(), ['created_at', 'email', 'environment', 'id', 'kyb_status', 'name', 'siret']);
  t.like(data, {
    id: tenant.tenantId,
    email: tenant.email,
    siret: VALID_SIRET,
    kyb_status: 'verified',
    environment: 'production',
  });
});

test("keys: the tenant's keys of the caller's environment, never the key material", async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const user = await seedUser(app.ownerDb);
  await seedUserKey(app.ownerDb, user);
  await app
    .ownerDb('api_keys')
    .where({ tenant_id: tenant.tenantId, kind: 'publishable', environment: 'sandbox' })
    .update({ status: 'revoked' });
  const res = await tenantGet('/keys', { 'X-Tenant-Key': tenant.keys.sk_test });
  t.is(res.status, 200);
  const text = await res.text();
  t.false(text.includes(tenant.keys.sk_test));
  t.false(text.includes('hash'));
  const { data } = JSON.parse(text);
  t.is(data.length, 2);
  const secret = data.find((k: { type: string }) => k.type === 'secret');
  t.deepEqual(Object.keys(secret).sort(), [
    'created_at',
    'environment',
    'id',
    'last_four',
    'last_used_at',
    'prefix',
    'scopes',
    'status',
    'sub_tenant_id',
    'type',
  ]);
  t.like(secret, {
    prefix: tenant.keys.sk_test.slice(0, 12),
    last_four: tenant.keys.sk_test.slice(-4),
    environment: 'sandbox',
    status: 'active',
  });
  t.truthy(secret.last_used_at, 'this very request used it');
  t.is(data.find((k: { type: string }) => k.type === 'publishable').status, 'revoked');
  const live = await readJson(await tenantGet('/keys', { 'X-Tenant-Key': tenant.keys.sk_live }));
  t.deepEqual(
    live.data.map((k: { environment: string }) => k.environment),
    ['production', 'production'],
  );
});

test("keys/secret and keys/publishable: 201 with the new key, shown once, in the caller's environment", async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const res = await tenantPost('/keys/secret', { 'X-Tenant-Key': tenant.keys.sk_test });
  t.is(res.status, 201);
  const body = await readJson(res);
  t.regex(body.message, /only once/);
  t.deepEqual(Object.keys(body.data).sort(), ['created_at', 'id', 'key', 'type']);
  t.is(body.data.type, 'secret');
  t.regex(body.data.key, /^sk_test_[a-zA-Z0-9]{32}$/);
  t.is((await tenantGet('/me', { 'X-Tenant-Key': body.data.key })).status, 200, 'the new key works');
  t.is((await tenantGet('/me', { 'X-Tenant-Key': tenant.keys.sk_test })).status, 200, 'the old one still works');

  const token = await issueAccessToken(app.ownerDb, {
    tenantId: tenant.tenantId,
    userId: null,
    kind: 'tenant',
    environment: 'production',
    now: new Date(),
  });
  const pk = await readJson(await tenantPost('/keys/publishable', { Authorization: `Bearer ${token.token}` }));
  t.is(pk.data.type, 'publishable');
  t.regex(pk.data.key, /^pk_live_[a-zA-Z0-9]{32}$/);
  const row = await app.ownerDb('api_keys').where({ id: pk.data.id }).first();
  t.like(row, { tenant_id: tenant.tenantId, kind: 'publishable', environment: 'production', user_id: null });
  t.deepEqual(row.scopes, []);
});

test("tenant routes refuse a user's key or token (403 FORBIDDEN), a publishable key (401) and no credentials (401)", async (t) => {
  const user = await seedUser(app.ownerDb);
  const userKey = await seedUserKey(app.ownerDb, user);
  await refusal(t, await tenantGet('/me', { 'X-Tenant-Key': userKey }), 403, 'FORBIDDEN');
  await refusal(t, await tenantPost('/keys/secret', { 'X-API-Key': userKey }), 403, 'FORBIDDEN');
  await refusal(t, await tenantGet('/keys', { Authorization: `Bearer ${user.token}` }), 403, 'FORBIDDEN');
  await refusal(t, await tenantGet('/me', { 'X-Publishable-Key': partner.keys.pk_test }), 401, 'UNAUTHENTICATED');
  await refusal(t, await tenantGet('/me', {}), 401, 'API_KEY_MISSING');
  t.is(Number((await app.ownerDb('api_keys').where({ tenant_id: user.tenantId }).count({ n: '*' }))[0].n), 1);
});

test('register with an Idempotency-Key: a retry replays the first answer and creates nothing more', async (t) => {
  const body = registration();
  const headers = { 'Idempotency-Key': `register-${randomUUID()}` };
  const first = await app.request('/api/v1/tenant/auth/register', postJson(body, headers));
  t.is(first.status, 201);
  const retry = await app.request('/api/v1/tenant/auth/register', postJson(body, headers));
  t.is(retry.status, 201);
  t.is(retry.headers.get('Idempotent-Replayed'), 'true');
  t.deepEqual(await readJson(retry), await readJson(first));
  t.is(await tenantsWithEmail(body.email), 1);
});
