import test from 'ava';
import { generateInvoiceDocumentsJob } from '../../workers/handlers/generate-invoice-documents.js';
import { sendInvoiceStatus } from '../../workers/handlers/send-invoice-status.js';
import { syncProviderEvents } from '../../workers/handlers/sync-provider-events.js';
import { transmitInvoice } from '../../workers/handlers/transmit-invoice.js';
import { expectRefusal } from '../helpers/assertions.js';
import { postJson, readJson } from '../helpers/http.js';
import { type SeededTenant, seedPlatformTenant } from '../helpers/identities.js';
import { createInvoice } from '../helpers/invoices.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/** A recorded payment of an outgoing invoice (mark-paid), with the simulator's steps all due at once. */
let app: TestApp;
test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0', SIMULATOR_STEP_SECONDS: '0' } });
});
test.after.always(() => app?.close());

const post = (key: string, path: string, body: unknown = {}) => app.request(path, postJson(body, { 'X-API-Key': key }));

async function completedInvoice(tenant: SeededTenant) {
  const key = tenant.keys.sk_test;
  const invoice = await createInvoice(app.request, key, {}, '/api/v1/sandbox/invoices');
  await generateInvoiceDocumentsJob({ tenantId: tenant.tenantId, invoiceId: invoice.id }, app.deps);
  must((await post(key, `/api/v1/invoices/${invoice.id}/submit`)).status === 200);
  await transmitInvoice({ tenantId: tenant.tenantId, invoiceId: invoice.id }, app.deps);
  const row = await app.ownerDb('invoices').where({ id: invoice.id }).first();
  await syncProviderEvents({ tenantId: tenant.tenantId, connectionId: row.provider_connection_id }, app.deps);
  return { invoice, connectionId: row.provider_connection_id as string };
}
function must(ok: boolean) {
  if (!ok) throw new Error('setup failed');
}

test('mark-paid: completed → paid, one payment entry, fr:212 sent to the provider, never paid twice', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const key = tenant.keys.sk_test;
  const { invoice, connectionId } = await completedInvoice(tenant);
  t.is((await app.ownerDb('invoices').where({ id: invoice.id }).first()).status, 'completed');

  const other = await seedPlatformTenant(app.ownerDb);
  await expectRefusal(t, await post(other.keys.sk_test, `/api/v1/invoices/${invoice.id}/mark-paid`), 404, 'NOT_FOUND');

  const res = await post(key, `/api/v1/invoices/${invoice.id}/mark-paid`, {
    payment_reference: 'VIR-2026-118',
    payment_date: '2026-11-21',
  });
  const body = await readJson(res);
  t.is(res.status, 200, JSON.stringify(body));
  t.like(body, { message: 'Invoice marked as paid.', data: { status: 'paid' } });
  const entries = await app.ownerDb('fiscal_entries').where({ tenant_id: tenant.tenantId, entry_type: 'payment' });
  t.is(entries.length, 1);
  t.like(JSON.parse(entries[0].canonical_data), {
    payment_reference: 'VIR-2026-118',
    payment_date: '2026-11-21',
    invoice_id: invoice.id,
    amount: invoice.total_ttc.toFixed(2),
  });
  const jobs = await app.ownerDb
    .raw("select data from pgboss.job where name = 'send-invoice-status'")
    .then((r) => r.rows);
  t.deepEqual(
    jobs.map((j: { data: unknown }) => j.data),
    [{ tenantId: tenant.tenantId, invoiceId: invoice.id, statusCode: 'fr:212' }],
  );

  // The status reaches the provider, comes back in the event stream, and changes nothing more.
  await sendInvoiceStatus({ tenantId: tenant.tenantId, invoiceId: invoice.id, statusCode: 'fr:212' }, app.deps);
  await syncProviderEvents({ tenantId: tenant.tenantId, connectionId }, app.deps);
  const read = await readJson(await app.request(`/api/v1/invoices/${invoice.id}`, { headers: { 'X-API-Key': key } }));
  t.is(read.data.status, 'paid');
  t.is(read.data.lifecycle_events.at(-1).code, 'fr:212');
  t.is((await app.ownerDb('fiscal_entries').where({ tenant_id: tenant.tenantId, entry_type: 'payment' })).length, 1);
  const paidEvents = await app
    .ownerDb('events')
    .where({ name: 'invoice.paid' })
    .whereRaw("data->>'id' = ?", [invoice.id]);
  t.is(paidEvents.length, 1);

  await expectRefusal(t, await post(key, `/api/v1/invoices/${invoice.id}/mark-paid`), 409, 'INVALID_STATE');
});

test('mark-paid and simulate refuse an invoice that is not at the provider', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const key = tenant.keys.sk_test;
  const draft = await createInvoice(app.request, key, {}, '/api/v1/sandbox/invoices');
  await expectRefusal(t, await post(key, `/api/v1/invoices/${draft.id}/mark-paid`), 409, 'INVALID_STATE');
  await expectRefusal(
    t,
    await post(key, `/api/v1/sandbox/invoices/${draft.id}/simulate`, { status_code: 'fr:212' }),
    409,
    'INVALID_STATE',
  );
  const bad = await post(key, `/api/v1/invoices/${draft.id}/mark-paid`, { payment_date: 'yesterday' });
  t.is(bad.status, 422);
  t.is((await app.ownerDb('fiscal_entries').where({ tenant_id: tenant.tenantId, entry_type: 'payment' })).length, 0);
});
