import test from 'ava';
import { ROUTES } from '../../api/routes/index.js';
import { resolveApiKey } from '../../domain/auth/resolve-credential.js';
import { getBalance } from '../../domain/billing/operations/get-balance.js';
import type { AppError } from '../../domain/shared/app-error.js';
import { createDatabase } from '../../domain/shared/database.js';
import { expectRefusal as refusal } from '../helpers/assertions.js';
import { readJson } from '../helpers/http.js';
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
let user: SeededUser;
let tenant: SeededTenant;

test.before(async () => {
  // The service's routes plus one route of the sandbox environment only, as the /v1/sandbox set will be.
  app = await startTestApp({
    env: { RATE_LIMIT_SCALE: '0' },
    routes: () => [
      ...ROUTES,
      {
        method: 'get',
        path: '/api/test/sandbox-only',
        operation: getBalance,
        tag: 'Test',
        auth: ['api_key'],
        environment: 'sandbox',
      },
    ],
  });
  user = await seedUser(app.ownerDb);
  tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
});
test.after.always(() => app?.close());

const balance = (headers: Record<string, string>) => app.request('/api/v1/balance', { headers });

test('no key at all: 401 API_KEY_MISSING', async (t) => {
  await refusal(t, await balance({}), 401, 'API_KEY_MISSING');
});

test('a malformed key: 401 INVALID_API_KEY_FORMAT', async (t) => {
  for (const key of ['sk_live_short', 'sk_prod_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', `pk_test_${'a'.repeat(32)}`]) {
    await refusal(t, await balance({ 'X-API-Key': key }), 401, 'INVALID_API_KEY_FORMAT');
  }
});

test('the format is checked before any database access (an unreachable database is never asked)', async (t) => {
  const unreachable = createDatabase('postgres://postgres@127.0.0.1:1/none', { poolMax: 1 });
  try {
    const options = { ip: '127.0.0.1', now: new Date() };
    const err = await t.throwsAsync(resolveApiKey(unreachable, 'secret', 'sk_live_tooshort', options));
    t.is((err as AppError).code, 'INVALID_API_KEY_FORMAT');
    const reached = await t.throwsAsync(resolveApiKey(unreachable, 'secret', `sk_live_${'a'.repeat(32)}`, options));
    t.not((reached as AppError).code, 'INVALID_API_KEY_FORMAT', 'a well-formed key does reach the database');
  } finally {
    await unreachable.destroy();
  }
});

test('a well-formed unknown key: 401 API_KEY_INVALID', async (t) => {
  await refusal(t, await balance({ 'X-API-Key': `sk_test_${'Z'.repeat(32)}` }), 401, 'API_KEY_INVALID');
});

test('revoked and expired keys: 401 API_KEY_REVOKED', async (t) => {
  const revoked = await seedUserKey(app.ownerDb, user, { revoked: true });
  const expired = await seedUserKey(app.ownerDb, user, { expiresAt: new Date(Date.now() - 1000) });
  await refusal(t, await balance({ 'X-API-Key': revoked }), 401, 'API_KEY_REVOKED');
  await refusal(t, await balance({ 'X-API-Key': expired }), 401, 'API_KEY_REVOKED');
});

test('a production key on a sandbox-only route: 403 API_KEY_ENVIRONMENT_MISMATCH; a sandbox key is served', async (t) => {
  const owner = await seedUser(app.ownerDb);
  await seedVerifiedCompany(app.ownerDb, owner.tenantId);
  const live = await seedUserKey(app.ownerDb, owner, { environment: 'production' });
  const sandboxKey = await seedUserKey(app.ownerDb, owner, { environment: 'sandbox' });
  const sandboxOnly = (key: string) => app.request('/api/test/sandbox-only', { headers: { 'X-API-Key': key } });
  await refusal(t, await sandboxOnly(live), 403, 'API_KEY_ENVIRONMENT_MISMATCH');
  await refusal(t, await sandboxOnly(tenant.keys.sk_live), 403, 'API_KEY_ENVIRONMENT_MISMATCH');
  t.is((await sandboxOnly(sandboxKey)).status, 200);
  t.is((await balance({ 'X-API-Key': live })).status, 200, 'the same key works on routes of both environments');
});

test('a key whose prefix disagrees with its stored environment: 403 API_KEY_ENVIRONMENT_MISMATCH', async (t) => {
  const key = await seedUserKey(app.ownerDb, user, { environment: 'sandbox' });
  await app
    .ownerDb('api_keys')
    .where({ key_prefix: key.slice(0, 12) })
    .update({ environment: 'production' });
  await refusal(t, await balance({ 'X-API-Key': key }), 403, 'API_KEY_ENVIRONMENT_MISMATCH');
});

test('production keys: 403 KYC_REQUIRED until KYB (tenant) or company KYC (user); sandbox keys always work', async (t) => {
  const pending = await seedPlatformTenant(app.ownerDb, { kyb: 'pending' });
  await refusal(t, await balance({ 'X-Tenant-Key': pending.keys.sk_live }), 403, 'KYC_REQUIRED');
  t.is((await balance({ 'X-Tenant-Key': pending.keys.sk_test })).status, 200);

  const owner = await seedUser(app.ownerDb);
  const live = await seedUserKey(app.ownerDb, owner, { environment: 'production' });
  await refusal(t, await balance({ 'X-API-Key': live }), 403, 'KYC_REQUIRED');
  await seedVerifiedCompany(app.ownerDb, owner.tenantId);
  t.is((await balance({ 'X-API-Key': live })).status, 200);
});

test('a deactivated tenant: 403 TENANT_DISABLED, in both environments', async (t) => {
  const disabled = await seedPlatformTenant(app.ownerDb, { active: false });
  await refusal(t, await balance({ 'X-Tenant-Key': disabled.keys.sk_test }), 403, 'TENANT_DISABLED');
  await refusal(t, await balance({ 'X-Tenant-Key': disabled.keys.sk_live }), 403, 'TENANT_DISABLED');
});

test('the key is accepted in X-API-Key, X-Tenant-Key, X-Service-API-Key and Authorization: Bearer', async (t) => {
  const key = await seedUserKey(app.ownerDb, user);
  for (const headers of <Record<string, string>[]>[
    { 'X-API-Key': key },
    { 'X-Tenant-Key': key },
    { 'X-Service-API-Key': key },
    { Authorization: `Bearer ${key}` },
  ]) {
    t.is((await balance(headers)).status, 200, JSON.stringify(Object.keys(headers)));
  }
  t.is((await balance({ 'X-API-Key': tenant.keys.sk_live })).status, 200);
});

test('last use is recorded with the source IP', async (t) => {
  const key = await seedUserKey(app.ownerDb, user);
  t.is((await balance({ 'X-API-Key': key })).status, 200);
  const row = await app
    .ownerDb('api_keys')
    .where({ key_prefix: key.slice(0, 12) })
    .first();
  t.truthy(row.last_used_at);
  t.regex(row.last_used_ip, /127\.0\.0\.1/);
  t.not(row.key_hash, key);
});

test('a bearer token works; an unknown, revoked or expired one is 401 UNAUTHENTICATED', async (t) => {
  t.is((await balance({ Authorization: `Bearer ${user.token}` })).status, 200);
  await refusal(t, await balance({ Authorization: `Bearer at_${'x'.repeat(48)}` }), 401, 'UNAUTHENTICATED');
  const other = await seedUser(app.ownerDb);
  await app.ownerDb('access_tokens').where({ user_id: other.userId }).update({ revoked_at: new Date() });
  await refusal(t, await balance({ Authorization: `Bearer ${other.token}` }), 401, 'UNAUTHENTICATED');
  const third = await seedUser(app.ownerDb);
  await app
    .ownerDb('access_tokens')
    .where({ user_id: third.userId })
    .update({ expires_at: new Date(Date.now() - 1) });
  await refusal(t, await balance({ Authorization: `Bearer ${third.token}` }), 401, 'UNAUTHENTICATED');
});

test('a publishable key on a secret-key route is refused, not ignored', async (t) => {
  await refusal(t, await balance({ 'X-Publishable-Key': tenant.keys.pk_test }), 401, 'UNAUTHENTICATED');
});

test('a disabled user account: 403 ACCOUNT_DISABLED for its token and keys', async (t) => {
  const disabled = await seedUser(app.ownerDb);
  const key = await seedUserKey(app.ownerDb, disabled);
  await app.ownerDb('users').where({ id: disabled.userId }).update({ is_active: false });
  await refusal(t, await balance({ Authorization: `Bearer ${disabled.token}` }), 403, 'ACCOUNT_DISABLED');
  await refusal(t, await balance({ 'X-API-Key': key }), 403, 'ACCOUNT_DISABLED');
});

test('each caller reads its own balance only', async (t) => {
  await app.ownerDb('balances').where({ tenant_id: user.tenantId }).update({ amount: '12.34' });
  const mine = await readJson(await balance({ Authorization: `Bearer ${user.token}` }));
  t.is(mine.data.amount, 12.34);
  const theirs = await readJson(await balance({ 'X-Tenant-Key': tenant.keys.sk_test }));
  t.is(theirs.data.amount, 0);
});
