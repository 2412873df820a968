import test from 'ava';
import { generateInvoiceDocumentsJob } from '../../workers/handlers/generate-invoice-documents.js';
import { syncProviderEvents } from '../../workers/handlers/sync-provider-events.js';
import { transmitInvoice } from '../../workers/handlers/transmit-invoice.js';
import { expectRefusal } from '../helpers/assertions.js';
import { postJson, readJson } from '../helpers/http.js';
import { type SeededTenant, seedPlatformTenant } from '../helpers/identities.js';
import { createInvoice } from '../helpers/invoices.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Sandbox `simulate` on a submitted invoice, whichever comes first: the call or the upload (the
 * transmit-invoice job, run here by hand, as a worker process would). The simulator's automatic
 * steps are a minute apart, so only the forced codes move the invoice.
 */
let app: TestApp;
test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0', SIMULATOR_STEP_SECONDS: '60' } });
});
test.after.always(() => app?.close());

const post = (key: string, path: string, body: unknown = {}) => app.request(path, postJson(body, { 'X-API-Key': key }));
const simulate = (tenant: SeededTenant, id: string, body: unknown) =>
  post(tenant.keys.sk_test, `/api/v1/sandbox/invoices/${id}/simulate`, body);
const row = (id: string) => app.ownerDb('invoices').where({ id }).first();
const upload = (tenant: SeededTenant, id: string) =>
  transmitInvoice({ tenantId: tenant.tenantId, invoiceId: id }, app.deps);
const eventNames = async (tenant: SeededTenant, id: string) =>
  app
    .ownerDb('events')
    .where({ tenant_id: tenant.tenantId })
    .whereRaw("data->>'id' = ?", [id])
    .orderBy('id')
    .pluck('name');

/** A sandbox invoice, submitted: its transmit-invoice job is queued, and no worker runs it. */
async function submitted(tenant: SeededTenant) {
  const invoice = await createInvoice(app.request, tenant.keys.sk_test, {}, '/api/v1/sandbox/invoices');
  await generateInvoiceDocumentsJob({ tenantId: tenant.tenantId, invoiceId: invoice.id }, app.deps);
  const res = await post(tenant.keys.sk_test, `/api/v1/invoices/${invoice.id}/submit`);
  if (res.status !== 200) throw new Error(`submit failed: ${res.status}`);
  return invoice.id as string;
}

test('simulate before the upload lands: recorded (200, still submitted), applied in order when it lands', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const draft = await createInvoice(app.request, tenant.keys.sk_test, {}, '/api/v1/sandbox/invoices');
  await expectRefusal(t, await simulate(tenant, draft.id, { status_code: 'fr:210' }), 409, 'INVALID_STATE');

  const rejected = await submitted(tenant);
  const early = await simulate(tenant, rejected, { status_code: 'fr:210', reason: 'NON_CONFORME: prix faux' });
  const earlyBody = await readJson(early);
  t.is(early.status, 200, JSON.stringify(earlyBody));
  t.like(earlyBody.data, { status: 'submitted', pdp_id: null });
  t.is((await app.ownerDb('simulated_pending_codes').where({ invoice_id: rejected })).length, 1);

  const paid = await submitted(tenant);
  t.is((await simulate(tenant, paid, { status_code: 'fr:205' })).status, 200);
  t.is((await simulate(tenant, paid, { status_code: 'fr:212' })).status, 200);

  await upload(tenant, rejected);
  await upload(tenant, paid);
  t.like(await row(rejected), { status: 'rejected', status_message: 'fr:210 Refusée: NON_CONFORME: prix faux' });
  t.like(await row(paid), { status: 'paid' });
  t.deepEqual(
    (await row(paid)).lifecycle_events.map((e: { code: string }) => e.code),
    ['api:uploaded', 'fr:205', 'fr:212'],
  );
  t.true((await eventNames(tenant, rejected)).includes('invoice.rejected'));
  t.true((await eventNames(tenant, paid)).includes('invoice.paid'));
  t.is((await app.ownerDb('simulated_pending_codes').whereIn('invoice_id', [rejected, paid])).length, 0);

  // the automatic path was dropped: a later sync changes nothing
  await syncProviderEvents(
    { tenantId: tenant.tenantId, connectionId: (await row(paid)).provider_connection_id },
    app.deps,
  );
  t.like(await row(rejected), { status: 'rejected' });
  t.like(await row(paid), { status: 'paid' });
});

test('simulate after the upload landed: applied at once, as before', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const id = await submitted(tenant);
  await upload(tenant, id);
  t.truthy((await row(id)).pdp_id);
  const res = await simulate(tenant, id, { status_code: 'fr:210', reason: 'DOUBLON' });
  const body = await readJson(res);
  t.is(res.status, 200, JSON.stringify(body));
  t.like(body.data, { status: 'rejected', status_message: 'fr:210 Refusée: DOUBLON' });
  t.is((await app.ownerDb('simulated_pending_codes').where({ invoice_id: id })).length, 0);
});

test('simulate racing the upload: the code is applied whichever commits first', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const ids = await Promise.all([submitted(tenant), submitted(tenant), submitted(tenant)]);
  const results = await Promise.all(
    ids.flatMap((id) => [simulate(tenant, id, { status_code: 'fr:210', reason: 'AUTRE' }), upload(tenant, id)]),
  );
  for (const res of results.filter((r): r is Response => r instanceof Response)) t.is(res.status, 200);
  for (const id of ids) t.like(await row(id), { status: 'rejected', status_message: 'fr:210 Refusée: AUTRE' });
  t.is((await app.ownerDb('simulated_pending_codes').whereIn('invoice_id', ids)).length, 0);
});
