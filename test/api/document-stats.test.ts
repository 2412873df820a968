import test from 'ava';
import { itemsFor } from '../helpers/credit-notes.js';
import { postJson, readJson } from '../helpers/http.js';
import { seedPlatformTenant, seedSubTenant } from '../helpers/identities.js';
import { invoiceBody } from '../helpers/invoices.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The stats routes count invoices and credit notes (the specification's `invoices_count` and
 * `credit_notes_count`): the tenant's figures cover its own and its sub-tenants' documents of the
 * key's environment, a sub-tenant's only its own; deleted drafts are not counted.
 */
let app: TestApp;
test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
});
test.after.always(() => app?.close());

const post = async (key: string, path: string, body: unknown) => {
  const res = await app.request(path, postJson(body, { 'X-API-Key': key }));
  const json = await readJson(res);
  if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
};
const remove = (key: string, path: string) => app.request(path, { method: 'DELETE', headers: { 'X-API-Key': key } });
const get = async (key: string, path: string) =>
  (await readJson(await app.request(path, { headers: { 'X-API-Key': key } }))).data;
const creditNote = (invoice: { id: string }, share: number) => ({
  invoice_id: invoice.id,
  reason: 'Remise',
  items: itemsFor(invoice, share),
});

test('tenant and sub-tenant stats count invoices and credit notes, deleted drafts left out', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const other = await seedPlatformTenant(app.ownerDb);
  const key = tenant.keys.sk_test;
  const subA = await seedSubTenant(app.ownerDb, tenant.tenantId);
  const subB = await seedSubTenant(app.ownerDb, tenant.tenantId);
  const invoice = () => invoiceBody({ invoice_number: `ST-${Math.random().toString(36).slice(2, 12)}` });

  const own = await post(key, '/api/v1/tenant/invoices', invoice());
  await post(key, '/api/v1/credit-notes', creditNote(own, 0.25));
  const a1 = await post(key, `/api/v1/tenant/sub-tenants/${subA}/invoices`, invoice());
  await post(key, `/api/v1/tenant/sub-tenants/${subA}/invoices`, invoice());
  const aDraft = await post(key, `/api/v1/tenant/sub-tenants/${subA}/invoices`, invoice());
  t.is((await remove(key, `/api/v1/invoices/${aDraft.id}`)).status, 200);
  await post(key, `/api/v1/tenant/sub-tenants/${subA}/credit-notes`, creditNote(a1, 0.25));
  const aNote = await post(key, `/api/v1/tenant/sub-tenants/${subA}/credit-notes`, creditNote(a1, 0.25));
  t.is((await remove(key, `/api/v1/credit-notes/${aNote.id}`)).status, 200);
  await post(key, `/api/v1/tenant/sub-tenants/${subB}/invoices`, invoice());
  await post(other.keys.sk_test, '/api/v1/tenant/invoices', invoice());

  t.like(await get(key, `/api/v1/tenant/sub-tenants/${subA}/stats/overview`), {
    invoices_count: 2,
    credit_notes_count: 1,
  });
  t.like(await get(key, `/api/v1/tenant/sub-tenants/${subB}/stats/overview`), {
    invoices_count: 1,
    credit_notes_count: 0,
  });
  t.like(await get(key, '/api/v1/tenant/stats'), { environment: 'sandbox', invoices_count: 4, credit_notes_count: 2 });
  t.like(await get(tenant.keys.sk_live, '/api/v1/tenant/stats'), {
    environment: 'production',
    invoices_count: 0,
    credit_notes_count: 0,
  });
});
