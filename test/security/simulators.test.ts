import test from 'ava';
import { postJson, readJson } from '../helpers/http.js';
import { seedPlatformTenant, seedUser } from '../helpers/identities.js';
import { createInvoice } from '../helpers/invoices.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Without ENABLE_SIMULATORS, nothing stands in for a production provider: no Google sign-in
 * simulator, no KYC simulator approving companies, no simulated e-invoicing for production
 * invoices. Sandbox e-invoicing keeps its simulator (DECISIONS.md "Providers").
 */
let app: TestApp;

test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0', ENABLE_SIMULATORS: 'false' } });
});
test.after.always(() => app?.close());

test('Google sign-in: the simulator pages are 404 and sign-in is not offered (503)', async (t) => {
  t.is(app.deps.identityProvider.name, 'none');
  for (const path of ['/simulator/google/authorize?state=x', '/simulator/google/approve?state=x&email=a@b.co']) {
    const res = await app.request(path);
    t.is(res.status, 404, path);
  }
  const start = await app.request('/api/v1/auth/google');
  t.is(start.status, 503);
  t.is((await readJson(start)).code, 'SERVICE_UNAVAILABLE');
});

test('KYC: starting a verification is refused instead of approved by a simulator', async (t) => {
  const user = await seedUser(app.ownerDb);
  const headers = { Authorization: `Bearer ${user.token}` };
  const company = await readJson(
    await app.request(
      '/api/v1/companies',
      postJson(
        {
          name: 'Acme SAS',
          siret: '73282932000074',
          address_line1: '1 rue de la Paix',
          postal_code: '75002',
          city: 'Paris',
        },
        headers,
      ),
    ),
  );
  t.truthy(company.data?.id, JSON.stringify(company));
  const res = await app.request(`/api/v1/companies/${company.data.id}/kyc`, { method: 'POST', headers });
  const body = await readJson(res);
  t.is(res.status, 503, JSON.stringify(body));
  t.is(body.code, 'PROVIDER_UNAVAILABLE');
  const row = await app.ownerDb('companies').where({ id: company.data.id }).first();
  t.not(row.kyc_status, 'completed');
});

test('e-invoicing: a production submission without SUPERPDP_BASE_URL is refused clearly; sandbox still simulates', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  await app.ownerDb('balances').where({ tenant_id: tenant.tenantId }).update({ amount: '10.00' });
  const live = await createInvoice(app.request, tenant.keys.sk_live);
  const res = await app.request(`/api/v1/invoices/${live.id}/submit`, {
    method: 'POST',
    headers: { 'X-API-Key': tenant.keys.sk_live },
  });
  const body = await readJson(res);
  t.is(res.status, 503, JSON.stringify(body));
  t.is(body.code, 'PROVIDER_UNAVAILABLE');
  t.regex(body.message, /No e-invoicing provider is configured for production invoices \(SUPERPDP_BASE_URL\)/);
  t.is((await app.ownerDb('invoices').where({ id: live.id }).first()).status, 'draft');

  const sandbox = await createInvoice(app.request, tenant.keys.sk_test);
  const submitted = await app.request(`/api/v1/sandbox/invoices/${sandbox.id}/submit`, {
    method: 'POST',
    headers: { 'X-API-Key': tenant.keys.sk_test },
  });
  t.is(submitted.status, 200, JSON.stringify(await readJson(submitted)));
});
