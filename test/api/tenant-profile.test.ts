import test from 'ava';
import { issueAccessToken } from '../../domain/auth/access-token-store.js';
import { insertApiKey } from '../../domain/tenants/api-key-store.js';
import { webhookUrlProblem } from '../../domain/tenants/webhook-url.js';
import { expectInvalid as invalid, expectRefusal as refusal } from '../helpers/assertions.js';
import { readJson } from '../helpers/http.js';
import { type SeededTenant, seedPlatformTenant, seedUser, seedUserKey } from '../helpers/identities.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;

test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
});
test.after.always(() => app?.close());

const key = (value: string) => ({ 'X-Tenant-Key': value });
const getMe = (headers: Record<string, string>) => app.request('/api/v1/tenant/me', { headers });
const putMe = (headers: Record<string, string>, body: unknown) =>
  app.request('/api/v1/tenant/me', {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
const tenantGet = (path: string, headers: Record<string, string>) => app.request(`/api/v1/tenant${path}`, { headers });
const regenerate = (headers: Record<string, string>) =>
  app.request('/api/v1/tenant/regenerate-key', { method: 'POST', headers });

const PROFILE_FIELDS = [
  'balance',
  'billing_email',
  'created_at',
  'environment',
  'id',
  'is_active',
  'is_partner',
  'kyb_status',
  'kyb_verified_at',
  'legal_name',
  'name',
  'parent_tenant_id',
  'settings',
  'siret',
  'slug',
  'technical_email',
  'vat_number',
  'webhook_url',
];

test('GET /tenant/me: the Tenant fields, the environment of the key, the balance in EUR, never a secret', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified', partner: true });
  await app.ownerDb('balances').where({ tenant_id: tenant.tenantId }).update({ amount: '42.50' });
  await app
    .ownerDb('tenants')
    .where({ id: tenant.tenantId })
    .update({ webhook_secret_encrypted: 'ciphertext', settings: { invoice_prefix: 'ACME' } });
  const res = await getMe(key(tenant.keys.sk_test));
  t.is(res.status, 200);
  const text = await res.text();
  const { data } = JSON.parse(text);
  t.deepEqual(Object.keys(data).sort(), PROFILE_FIELDS);
  t.like(data, {
    id: tenant.tenantId,
    parent_tenant_id: null,
    siret: '73282932000074',
    billing_email: tenant.email,
    environment: 'sandbox',
    kyb_status: 'verified',
    balance: 42.5,
    is_partner: true,
    is_active: true,
    settings: { invoice_prefix: 'ACME' },
  });
  t.truthy(data.kyb_verified_at);
  for (const secret of ['ciphertext', 'scrypt', 'webhook_secret', 'password']) t.false(text.includes(secret), secret);
  t.is((await readJson(await getMe(key(tenant.keys.sk_live)))).data.environment, 'production');
});

test('PUT /tenant/me changes the writable fields and answers with the profile', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const other = await seedPlatformTenant(app.ownerDb);
  const changes = {
    name: 'Renamed SAS',
    billing_email: 'billing@renamed.example',
    technical_email: 'tech@renamed.example',
    webhook_url: 'https://hooks.renamed.example/einvoice',
  };
  const res = await putMe(key(tenant.keys.sk_test), changes);
  t.is(res.status, 200);
  const body = await readJson(res);
  t.is(body.message, 'Tenant profile updated.');
  t.like(body.data, changes);
  const { webhook_url: sandboxUrl, ...accountFields } = changes;
  const row = await app.ownerDb('tenants').where({ id: tenant.tenantId }).first();
  t.like(row, accountFields);
  t.is(row.webhook_url, null, "a sandbox key sets the sandbox URL, never the tenant row's production one");
  t.is(sandboxUrl, body.data.webhook_url);
  t.is((await app.ownerDb('tenants').where({ id: other.tenantId }).first()).name, 'Platform SAS', 'only the caller');

  const cleared = await readJson(await putMe(key(tenant.keys.sk_test), { webhook_url: null }));
  t.is(cleared.data.webhook_url, null);
  t.is(cleared.data.name, 'Renamed SAS', 'fields left out keep their value');
});

test('PUT /tenant/me refuses every other field with 422 naming it, and changes nothing', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'pending' });
  const headers = key(tenant.keys.sk_test);
  for (const [field, value] of Object.entries({
    kyb_status: 'verified',
    is_partner: true,
    siret: '73282932000074',
    is_active: false,
    webhook_secret: 'whsec_x',
    parent_tenant_id: null,
    balance: 1000,
    settings: {},
  })) {
    await invalid(t, await putMe(headers, { name: 'Sneaky', [field]: value }), field);
  }
  await invalid(t, await putMe(headers, {}), 'body');
  await invalid(t, await putMe(headers, { billing_email: 'nope' }), 'billing_email');
  await invalid(t, await putMe(headers, { name: '' }), 'name');
  const row = await app.ownerDb('tenants').where({ id: tenant.tenantId }).first();
  t.like(row, { name: 'Platform SAS', kyb_status: 'pending', is_partner: false });
});

test('webhook_url must be https and public (http and private hosts only where private URLs are allowed)', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  for (const url of [
    'http://hooks.example.com/x',
    'https://127.0.0.1/x',
    'https://localhost/x',
    'https://10.1.2.3/x',
    'https://[::1]/x',
    'https://user:pass@hooks.example.com/x',
    'ftp://hooks.example.com/x',
    'not a url',
  ]) {
    await invalid(t, await putMe(key(tenant.keys.sk_test), { webhook_url: url }), 'webhook_url');
  }
  t.is((await app.ownerDb('tenants').where({ id: tenant.tenantId }).first()).webhook_url, null);
  // ALLOW_PRIVATE_URLS (local setups) lets http and private hosts through; other schemes never.
  t.is(webhookUrlProblem('http://localhost:4000/hooks', true), null);
  t.is(webhookUrlProblem('https://192.168.1.20/hooks', true), null);
  t.is(webhookUrlProblem('ftp://localhost/hooks', true), 'must be an http or https URL');
  t.is(webhookUrlProblem('https://hooks.example.com/x', false), null);
});

test('GET /tenant/balance: the Balance resource of the caller', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  await app.ownerDb('balances').where({ tenant_id: tenant.tenantId }).update({ amount: '12.34' });
  const res = await tenantGet('/balance', key(tenant.keys.sk_test));
  t.is(res.status, 200);
  t.deepEqual((await readJson(res)).data, {
    amount: 12.34,
    currency: 'EUR',
    auto_reload_enabled: false,
    auto_reload_threshold: null,
    auto_reload_amount: null,
    low_balance_alert_threshold: 10,
    critical_balance_alert_threshold: 2,
  });
});

async function seedSubTenant(tenantId: string, environment: string, status = 'active'): Promise<string> {
  const [row] = await app
    .ownerDb('sub_tenants')
    .insert({ tenant_id: tenantId, environment, name: `Sub ${environment}`, status })
    .returning('id');
  return row.id;
}

let companySeq = 0;
async function seedCompany(tenantId: string, subTenantId: string | null, deleted = false): Promise<void> {
  await app.ownerDb('companies').insert({
    tenant_id: tenantId,
    sub_tenant_id: subTenantId,
    name: 'Client SARL',
    siret: `7328293200${String(++companySeq).padStart(4, '0')}`,
    address_line1: '1 rue de la Paix',
    postal_code: '75002',
    city: 'Paris',
    deleted_at: deleted ? new Date() : null,
  });
}

test("GET /tenant/stats: real counts of the caller's environment and this month's transactions", async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const noise = await seedPlatformTenant(app.ownerDb);
  const sandboxSub = await seedSubTenant(tenant.tenantId, 'sandbox');
  await seedSubTenant(tenant.tenantId, 'sandbox');
  await seedSubTenant(tenant.tenantId, 'sandbox', 'suspended');
  const liveSub = await seedSubTenant(tenant.tenantId, 'production');
  await seedSubTenant(noise.tenantId, 'sandbox');
  await seedCompany(tenant.tenantId, null);
  await seedCompany(tenant.tenantId, sandboxSub);
  await seedCompany(tenant.tenantId, liveSub);
  await seedCompany(tenant.tenantId, sandboxSub, true);
  await seedCompany(noise.tenantId, null);
  await app
    .ownerDb('api_keys')
    .where({ tenant_id: tenant.tenantId, kind: 'publishable', environment: 'sandbox' })
    .update({
      status: 'revoked',
    });

  const now = new Date();
  const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15));
  const movement = (type: string, amount: string, balanceAfter: string, createdAt = now) => ({
    tenant_id: tenant.tenantId,
    type,
    amount,
    balance_after: balanceAfter,
    created_at: createdAt,
  });
  await app.ownerDb('balances').where({ tenant_id: tenant.tenantId }).update({ amount: '49.92' });
  await app
    .ownerDb('balance_transactions')
    .insert([
      movement('balance_credit', '50.00', '50.00'),
      movement('invoice_created', '-0.04', '49.96'),
      movement('invoice_created', '-0.04', '49.92'),
      movement('signature_created', '-1.20', '10.00', lastMonth),
    ]);

  const sandbox = (await readJson(await tenantGet('/stats', key(tenant.keys.sk_test)))).data;
  t.is(sandbox.environment, 'sandbox');
  t.deepEqual(sandbox.sub_tenants, { total: 3, active: 2, suspended: 1 });
  t.deepEqual(sandbox.companies, { total: 2 });
  t.deepEqual(sandbox.api_keys, { secret: 1, publishable: 0 });
  t.deepEqual(sandbox.balance, { amount: 49.92, currency: 'EUR' });
  t.is(sandbox.current_month.from.slice(8), '01');
  t.true(sandbox.current_month.to > sandbox.current_month.from);
  t.deepEqual(sandbox.current_month.transactions.invoice_created, { count: 2, amount: -0.08 });
  t.deepEqual(sandbox.current_month.transactions.balance_credit, { count: 1, amount: 50 });
  t.deepEqual(sandbox.current_month.transactions.signature_created, { count: 0, amount: 0 }, 'last month is out');
  // Every type of movement, the monthly billing's two and the refund of a failed signature included.
  t.is(Object.keys(sandbox.current_month.transactions).length, 9);
  t.deepEqual(sandbox.current_month.transactions.billing_discount, { count: 0, amount: 0 });
  t.deepEqual(sandbox.current_month.transactions.billing_vat, { count: 0, amount: 0 });
  t.deepEqual(sandbox.current_month.transactions.signature_refunded, { count: 0, amount: 0 });

  const live = (await readJson(await tenantGet('/stats', key(tenant.keys.sk_live)))).data;
  t.is(live.environment, 'production');
  t.deepEqual(live.sub_tenants, { total: 1, active: 1, suspended: 0 });
  t.deepEqual(live.companies, { total: 2 });
  t.deepEqual(live.api_keys, { secret: 1, publishable: 1 });
});

test('POST /tenant/regenerate-key: a new secret key, and the key used is revoked at once in the same step', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const res = await regenerate(key(tenant.keys.sk_test));
  t.is(res.status, 200);
  const body = await readJson(res);
  t.regex(body.message, /revoked/);
  t.regex(body.warning, /only once/);
  t.deepEqual(Object.keys(body.data).sort(), ['created_at', 'id', 'key', 'type']);
  t.is(body.data.type, 'secret');
  t.regex(body.data.key, /^sk_test_[a-zA-Z0-9]{32}$/);

  await refusal(t, await getMe(key(tenant.keys.sk_test)), 401, 'API_KEY_REVOKED');
  t.is((await getMe(key(body.data.key))).status, 200);
  t.is((await getMe(key(tenant.keys.sk_live))).status, 200, 'the other environment is untouched');
  const old = await app
    .ownerDb('api_keys')
    .where({ key_prefix: tenant.keys.sk_test.slice(0, 12) })
    .first();
  t.like(old, { status: 'revoked', revoked_reason: 'regenerated' });
  await refusal(t, await regenerate(key(tenant.keys.sk_test)), 401, 'API_KEY_REVOKED');
});

test('regenerate-key with a tenant token creates a key and revokes nothing', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const token = await issueAccessToken(app.ownerDb, {
    tenantId: tenant.tenantId,
    userId: null,
    kind: 'tenant',
    environment: 'sandbox',
    now: new Date(),
  });
  const res = await regenerate({ Authorization: `Bearer ${token.token}` });
  t.is(res.status, 200);
  const body = await readJson(res);
  t.regex(body.message, /No key was revoked/);
  t.regex(body.data.key, /^sk_test_/);
  t.is((await getMe(key(tenant.keys.sk_test))).status, 200);
});

test("a sub-tenant's key may not read the tenant's profile, change it or regenerate keys (403 FORBIDDEN)", async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const subTenantId = await seedSubTenant(tenant.tenantId, 'sandbox');
  const subKey = await insertApiKey(app.ownerDb, tenant.tenantId, {
    name: 'sub',
    kind: 'secret',
    environment: 'sandbox',
    scopes: ['invoices'],
    subTenantId,
  });
  // The profile holds the whole tenant's balance, e-mails and webhook URL: not a sub-tenant's to read.
  await refusal(t, await getMe(key(subKey.key)), 403, 'FORBIDDEN');
  await refusal(t, await putMe(key(subKey.key), { name: 'Hijacked' }), 403, 'FORBIDDEN');
  await refusal(t, await regenerate(key(subKey.key)), 403, 'FORBIDDEN');
  t.is((await app.ownerDb('tenants').where({ id: tenant.tenantId }).first()).name, 'Platform SAS');
  t.is((await app.ownerDb('api_keys').where({ id: subKey.id }).first()).status, 'active');
});

test("tenant profile routes refuse a user's key or token with 403 FORBIDDEN", async (t) => {
  const user = await seedUser(app.ownerDb);
  const userKey = await seedUserKey(app.ownerDb, user);
  const tenant: SeededTenant = await seedPlatformTenant(app.ownerDb);
  for (const path of ['/me', '/balance', '/stats']) {
    await refusal(t, await tenantGet(path, key(userKey)), 403, 'FORBIDDEN');
    await refusal(t, await tenantGet(path, { Authorization: `Bearer ${user.token}` }), 403, 'FORBIDDEN');
  }
  await refusal(t, await putMe(key(userKey), { name: 'x' }), 403, 'FORBIDDEN');
  await refusal(t, await regenerate(key(userKey)), 403, 'FORBIDDEN');
  const active = await app.ownerDb('api_keys').where({ tenant_id: user.tenantId, status: 'active' }).count({ n: '*' });
  t.is(Number(active[0].n), 1, 'the user key was not revoked by regenerate-key');
  await refusal(t, await getMe({ 'X-Publishable-Key': tenant.keys.pk_test }), 401, 'UNAUTHENTICATED');
});
