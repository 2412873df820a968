import test, { type ExecutionContext } from 'ava';
import { issueAccessToken } from '../../domain/auth/access-token-store.js';
import { expectInvalid as invalid, expectRefusal as refusal } from '../helpers/assertions.js';
import { postJson, readJson } from '../helpers/http.js';
import {
  type SeededUser,
  seedPlatformTenant,
  seedUser,
  seedUserKey,
  seedVerifiedCompany,
} from '../helpers/identities.js';
import { invoiceBody } from '../helpers/invoices.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The administration (spec "Admin"): platform figures, users and companies with their toggles
 * (a disabled user's or company's credentials refused on the next request, working again once
 * enabled), manual credit and debit with the admin as actor, and the append-only admin audit log.
 */
let app: TestApp;
let admin: SeededUser;

test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
  admin = await seedUser(app.ownerDb, { admin: true });
});
test.after.always(() => app?.close());

const asAdmin = (path: string, init: RequestInit = {}) =>
  app.request(`/api/v1/admin${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${admin.token}`, ...(init.headers as Record<string, string>) },
  });
const adminPost = (path: string, body: unknown = {}) =>
  app.request(`/api/v1/admin${path}`, postJson(body, { Authorization: `Bearer ${admin.token}` }));
const ok = async (t: ExecutionContext, res: Response, status = 200) => {
  const body = await readJson(res);
  t.is(res.status, status, JSON.stringify(body));
  return body;
};
const auditRows = (targetId: string) =>
  app.ownerDb('admin_audit_log').where({ target_id: targetId }).orderBy('created_at');
const balanceWith = (headers: Record<string, string>) => app.request('/api/v1/balance', { headers });

test('a user without the permission gets 403, keys (even an admin’s) and no credential 401', async (t) => {
  const user = await seedUser(app.ownerDb);
  const adminKey = await seedUserKey(app.ownerDb, admin);
  for (const [method, path] of [
    ['GET', '/stats'],
    ['GET', '/users'],
    ['GET', `/users/${user.userId}`],
    ['POST', `/users/${user.userId}/toggle-status`],
    ['POST', `/users/${user.userId}/credit`],
    ['POST', `/users/${user.userId}/debit`],
    ['GET', '/companies'],
  ]) {
    const body = method === 'POST' ? JSON.stringify({ amount: 1, reason: 'x' }) : undefined;
    const json = { 'Content-Type': 'application/json' };
    await refusal(
      t,
      await app.request(`/api/v1/admin${path}`, {
        method,
        body,
        headers: { Authorization: `Bearer ${user.token}`, ...json },
      }),
      403,
      'FORBIDDEN',
    );
    const withKey = await app.request(`/api/v1/admin${path}`, {
      method,
      body,
      headers: { 'X-API-Key': adminKey, ...json },
    });
    t.is(withKey.status, 401, `${method} ${path} with a key`);
    await withKey.arrayBuffer();
    const anonymous = await app.request(`/api/v1/admin${path}`, { method, body, headers: json });
    t.is(anonymous.status, 401);
    await anonymous.arrayBuffer();
  }
  t.true(
    (await readJson(await app.request(`/api/v1/auth/me`, { headers: { Authorization: `Bearer ${user.token}` } }))).data
      .is_active,
  );
  t.is((await app.ownerDb('users').where({ id: user.userId }).first()).is_active, true, 'nothing changed');
  t.deepEqual(await auditRows(user.userId), []);
});

test('users: list with search, filters and pagination, one by id, 404 for an unknown one', async (t) => {
  const marker = `needle-${Date.now()}`;
  const one = await seedUser(app.ownerDb, { email: `${marker}-1@example.com` });
  await seedUser(app.ownerDb, { email: `${marker}-2@example.com` });
  await seedUser(app.ownerDb, { email: `${marker}-3@example.com` });

  const page1 = await ok(t, await asAdmin(`/users?search=${marker}&per_page=2`));
  t.deepEqual(page1.meta, { current_page: 1, last_page: 2, per_page: 2, total: 3 });
  t.deepEqual(
    page1.data.map((u: { email: string }) => u.email),
    [`${marker}-3@example.com`, `${marker}-2@example.com`],
  );
  const page2 = await ok(t, await asAdmin(`/users?search=${marker}&per_page=2&page=2`));
  t.deepEqual(
    page2.data.map((u: { email: string }) => u.email),
    [`${marker}-1@example.com`],
  );
  const item = page2.data[0];
  t.like(item, {
    id: one.userId,
    tenant_id: one.tenantId,
    role: 'user',
    is_admin: false,
    is_active: true,
    disabled_at: null,
  });
  t.false('password_hash' in item);

  const admins = await ok(t, await asAdmin(`/users?role=admin&search=${encodeURIComponent(admin.email)}`));
  t.deepEqual(
    admins.data.map((u: { id: string; is_admin: boolean }) => [u.id, u.is_admin]),
    [[admin.userId, true]],
  );
  t.is((await ok(t, await asAdmin(`/users?search=${marker}&status=disabled`))).meta.total, 0);
  // `%` is searched as itself, not as a wildcard.
  t.is((await ok(t, await asAdmin('/users?search=%25%25%25'))).meta.total, 0);

  t.like((await ok(t, await asAdmin(`/users/${one.userId}`))).data, { id: one.userId, email: one.email });
  await refusal(t, await asAdmin('/users/00000000-0000-4000-8000-000000000000'), 404, 'NOT_FOUND');
  await invalid(t, await asAdmin('/users?per_page=101'), 'per_page');
  await invalid(t, await asAdmin('/users?status=gone'), 'status');
});

test('toggle-status: a disabled user’s token and keys are refused at once, enabled again they work', async (t) => {
  const user = await seedUser(app.ownerDb);
  const key = await seedUserKey(app.ownerDb, user);
  const session = await issueAccessToken(app.ownerDb, {
    tenantId: user.tenantId,
    userId: user.userId,
    kind: 'session',
    now: new Date(),
  });
  const bearer = { Authorization: `Bearer ${user.token}` };
  const apiKey = { 'X-API-Key': key };
  const cookie = { Cookie: `einvoice_session=${session.token}` };
  for (const headers of [bearer, apiKey, cookie]) t.is((await balanceWith(headers)).status, 200);

  const disabled = await ok(t, await adminPost(`/users/${user.userId}/toggle-status`, { reason: 'fraud review' }));
  t.like(disabled.data, { id: user.userId, is_active: false });
  t.truthy(disabled.data.disabled_at);
  for (const headers of [bearer, apiKey, cookie]) {
    await refusal(t, await balanceWith(headers), 403, 'ACCOUNT_DISABLED');
  }
  await invalid(
    t,
    await app.request('/api/v1/auth/login', postJson({ email: user.email, password: user.password })),
    'email',
    'This account is disabled. Contact support.',
  );

  const enabled = await ok(t, await adminPost(`/users/${user.userId}/toggle-status`));
  t.like(enabled.data, { id: user.userId, is_active: true, disabled_at: null });
  for (const headers of [bearer, apiKey, cookie]) t.is((await balanceWith(headers)).status, 200);

  const rows = await auditRows(user.userId);
  t.deepEqual(
    rows.map((row) => [row.action, row.target_type, row.admin_user_id, row.target_tenant_id]),
    [
      ['user.disabled', 'user', admin.userId, user.tenantId],
      ['user.enabled', 'user', admin.userId, user.tenantId],
    ],
  );
  t.like(rows[0].details, { email: user.email, reason: 'fraud review' });
  t.truthy(rows[0].ip);
});

test('toggle-status: an admin cannot disable itself; an unknown user is 404', async (t) => {
  await refusal(t, await adminPost(`/users/${admin.userId}/toggle-status`), 409, 'INVALID_STATE');
  t.true((await app.ownerDb('users').where({ id: admin.userId }).first()).is_active);
  await refusal(t, await adminPost('/users/00000000-0000-4000-8000-000000000000/toggle-status'), 404, 'NOT_FOUND');
  t.deepEqual(await auditRows(admin.userId), []);
});

test('companies: list, read, and a disabled company’s keys refused until it is enabled again', async (t) => {
  const user = await seedUser(app.ownerDb);
  const companyId = await seedVerifiedCompany(app.ownerDb, user.tenantId, '40483304800022');
  const bound = await seedUserKey(app.ownerDb, user, { companyId });
  const unbound = await seedUserKey(app.ownerDb, user);

  const listed = await ok(t, await asAdmin(`/companies?tenant_id=${user.tenantId}`));
  t.is(listed.meta.total, 1);
  t.like(listed.data[0], {
    id: companyId,
    tenant_id: user.tenantId,
    siret: '40483304800022',
    status: 'active',
    kyc_status: 'completed',
    owner_email: user.email,
    invoices_count: 0,
    api_keys_count: 1,
  });
  t.is((await ok(t, await asAdmin(`/companies?tenant_id=${user.tenantId}&search=048330`))).meta.total, 1);
  t.is((await ok(t, await asAdmin(`/companies?tenant_id=${user.tenantId}&status=inactive`))).meta.total, 0);
  t.like((await ok(t, await asAdmin(`/companies/${companyId}`))).data, { id: companyId, name: 'Verified SARL' });
  await refusal(t, await asAdmin('/companies/00000000-0000-4000-8000-000000000000'), 404, 'NOT_FOUND');

  t.is((await balanceWith({ 'X-API-Key': bound })).status, 200);
  t.like((await ok(t, await adminPost(`/companies/${companyId}/toggle-status`))).data, { status: 'inactive' });
  await refusal(t, await balanceWith({ 'X-API-Key': bound }), 403, 'COMPANY_DISABLED');
  t.is((await balanceWith({ 'X-API-Key': unbound })).status, 200, 'keys of the user not bound to it still work');
  t.is((await balanceWith({ Authorization: `Bearer ${user.token}` })).status, 200);
  t.is((await ok(t, await asAdmin(`/companies?tenant_id=${user.tenantId}&status=inactive`))).meta.total, 1);

  t.like((await ok(t, await adminPost(`/companies/${companyId}/toggle-status`))).data, { status: 'active' });
  t.is((await balanceWith({ 'X-API-Key': bound })).status, 200);
  t.deepEqual(
    (await auditRows(companyId)).map((row) => [row.action, row.target_type, row.target_tenant_id]),
    [
      ['company.disabled', 'company', user.tenantId],
      ['company.enabled', 'company', user.tenantId],
    ],
  );
});

test('credit and debit: balance movements with the admin as actor; a debit below zero is 422, nothing written', async (t) => {
  const user = await seedUser(app.ownerDb);
  const movements = () =>
    app.ownerDb('balance_transactions').where({ tenant_id: user.tenantId }).orderBy('created_at').orderBy('id');

  const credited = await ok(t, await adminPost(`/users/${user.userId}/credit`, { amount: 10.5, reason: 'goodwill' }));
  t.like(credited.data, { tenant_id: user.tenantId, amount: 10.5, balance: 10.5, currency: 'EUR' });

  const refused = await refusal(
    t,
    await adminPost(`/users/${user.userId}/debit`, { amount: 20, reason: 'too much' }),
    422,
    'DEBIT_EXCEEDS_BALANCE',
  );
  t.like(refused, { required: 20, balance: 10.5 });
  t.is((await movements()).length, 1, 'nothing written by the refused debit');
  t.is((await app.ownerDb('balances').where({ tenant_id: user.tenantId }).first()).amount, '10.50');

  const debited = await ok(t, await adminPost(`/users/${user.userId}/debit`, { amount: 5, reason: 'correction' }));
  t.like(debited.data, { tenant_id: user.tenantId, amount: -5, balance: 5.5 });
  // Down to exactly zero is allowed.
  t.like((await ok(t, await adminPost(`/users/${user.userId}/debit`, { amount: 5.5, reason: 'close' }))).data, {
    balance: 0,
  });

  t.deepEqual(
    (await movements()).map((row) => [row.type, row.amount, row.balance_after, row.reason, row.actor]),
    [
      ['balance_credit', '10.50', '10.50', 'goodwill', admin.userId],
      ['balance_debit', '-5.00', '5.50', 'correction', admin.userId],
      ['balance_debit', '-5.50', '0.00', 'close', admin.userId],
    ],
  );
  const balance = await readJson(await balanceWith({ Authorization: `Bearer ${user.token}` }));
  t.is(balance.data.amount, 0);

  const audit = await auditRows(user.userId);
  t.deepEqual(
    audit.map((row) => row.action),
    ['balance.credited', 'balance.debited', 'balance.debited'],
  );
  t.like(audit[0].details, {
    amount: 10.5,
    balance: 10.5,
    reason: 'goodwill',
    transaction_id: credited.data.transaction_id,
  });

  await invalid(t, await adminPost(`/users/${user.userId}/credit`, { amount: 1.005, reason: 'x' }), 'amount');
  await invalid(t, await adminPost(`/users/${user.userId}/debit`, { amount: 1 }), 'reason');
  await invalid(t, await adminPost(`/users/${user.userId}/credit`, { amount: -1, reason: 'x' }), 'amount');
  await refusal(
    t,
    await adminPost('/users/00000000-0000-4000-8000-000000000000/credit', { amount: 1, reason: 'x' }),
    404,
    'NOT_FOUND',
  );
  t.is((await movements()).length, 3);
  t.is((await auditRows(user.userId)).length, 3);
});

test.serial(
  'stats (alone: other tests add users): tenants, users, documents per environment and revenue per month and environment',
  async (t) => {
    const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
    await app.ownerDb('balances').where({ tenant_id: tenant.tenantId }).update({ amount: 10 });
    const create = async (key: string) => {
      const res = await app.request(
        '/api/v1/tenant/invoices',
        postJson(invoiceBody({ invoice_number: `ST-${Math.random().toString(36).slice(2, 10)}` }), {
          'X-API-Key': key,
        }),
      );
      t.is(res.status, 201, JSON.stringify(await readJson(res)));
    };
    const before = (await ok(t, await asAdmin('/stats'))).data;
    await create(tenant.keys.sk_live);
    await create(tenant.keys.sk_test);
    await seedUser(app.ownerDb);
    const after = (await ok(t, await asAdmin('/stats'))).data;

    t.is(after.tenants.platforms, before.tenants.platforms);
    t.is(after.tenants.workspaces, before.tenants.workspaces + 1);
    t.is(after.users.total, before.users.total + 1);
    t.true(after.users.admins >= 1);
    t.is(after.invoices.production, before.invoices.production + 1);
    t.is(after.invoices.sandbox, before.invoices.sandbox + 1);
    const month = new Date().toISOString().slice(0, 7);
    const revenueOf = (stats: typeof after, environment: string) =>
      stats.revenue.find(
        (row: { month: string; environment: string }) => row.month === month && row.environment === environment,
      );
    const production = revenueOf(after, 'production');
    t.is(
      Math.round(production.invoices * 100) - Math.round((revenueOf(before, 'production')?.invoices ?? 0) * 100),
      4,
      'one production invoice charged 0.04 EUR',
    );
    t.is(production.currency, 'EUR');
    t.is(revenueOf(after, 'sandbox').total, 0, 'the sandbox is free');
    await invalid(t, await asAdmin('/stats?months=37'), 'months');
  },
);

test('the admin audit log refuses UPDATE and DELETE, even to the owner', async (t) => {
  const user = await seedUser(app.ownerDb);
  await ok(t, await adminPost(`/users/${user.userId}/credit`, { amount: 1, reason: 'audit' }));
  const [row] = await auditRows(user.userId);
  t.truthy(row);
  await t.throwsAsync(app.ownerDb('admin_audit_log').where({ id: row.id }).update({ action: 'user.enabled' }), {
    message: /append-only/,
  });
  await t.throwsAsync(app.ownerDb('admin_audit_log').where({ id: row.id }).delete(), { message: /append-only/ });
  await t.throwsAsync(app.ownerDb.raw('truncate admin_audit_log'), { message: /append-only/ });
  t.deepEqual(await auditRows(user.userId), [row]);
});
