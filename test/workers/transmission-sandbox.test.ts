import type { ChildProcess } from 'node:child_process';
import test from 'ava';
import { postJson, readJson } from '../helpers/http.js';
import { seedPlatformTenant } from '../helpers/identities.js';
import { createInvoice } from '../helpers/invoices.js';
import { startProcess, stopProcess, WORKER_MAIN, waitFor } from '../helpers/processes.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { type Receiver, startReceiver } from '../helpers/webhook-receiver.js';

/**
 * The README's sandbox walkthrough, over HTTP with a real worker process: create, submit, the
 * simulator walks the invoice to `completed`, `simulate fr:212` makes it `paid`; the tenant's webhook
 * receives invoice.transmitted, invoice.validated and invoice.paid. Simulator steps are 1 s apart.
 */
let app: TestApp;
let worker: ChildProcess;
let receiver: Receiver;
test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0', ALLOW_PRIVATE_URLS: 'true', SIMULATOR_STEP_SECONDS: '1' } });
  receiver = await startReceiver();
  worker = (
    await startProcess(
      WORKER_MAIN,
      {
        DATABASE_URL: app.database.url,
        APP_KEY: app.deps.config.appKey!.toString('hex'),
        ALLOW_PRIVATE_URLS: 'true',
        SIMULATOR_STEP_SECONDS: '1',
        WORKER_SUPERVISE_SECONDS: '2',
      },
      'ready',
    )
  ).child;
});
test.after.always(async () => {
  if (worker) await stopProcess(worker);
  await receiver?.close();
  await app?.close();
});

const get = async (key: string, path: string) => readJson(await app.request(path, { headers: { 'X-API-Key': key } }));
const post = (key: string, path: string, body: unknown = {}) => app.request(path, postJson(body, { 'X-API-Key': key }));
/** A platform tenant whose webhook URL is the receiver. */
async function tenantWithWebhook() {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const put = await app.request('/api/v1/tenant/me', {
    method: 'PUT',
    headers: { 'X-Tenant-Key': tenant.keys.sk_test, 'Content-Type': 'application/json' },
    body: JSON.stringify({ webhook_url: `${receiver.url}/hooks` }),
  });
  if (put.status !== 200) throw new Error(`webhook_url not set: ${put.status}`);
  return tenant;
}
const eventsReceived = (invoiceId: string) =>
  receiver.requests
    .map((r) => JSON.parse(r.rawBody))
    .filter((e) => e.data?.id === invoiceId)
    .map((e) => e.event as string);

/**
 * When each event of an invoice happened (the envelope's `timestamp`): deliveries run in parallel
 * and may arrive in any order; the events themselves must be in lifecycle order.
 */
const eventTimes = (invoiceId: string) =>
  new Map(
    receiver.requests
      .map((r) => JSON.parse(r.rawBody))
      .filter((e) => e.data?.id === invoiceId)
      .map((e) => [e.event as string, Date.parse(e.timestamp)]),
  );

test.serial(
  'sandbox walkthrough: submit → completed through the simulator, simulate fr:212 → paid, with webhooks',
  async (t) => {
    const tenant = await tenantWithWebhook();
    const key = tenant.keys.sk_test;
    const invoice = await createInvoice(app.request, key, {}, '/api/v1/sandbox/invoices');

    const submitted = await post(key, `/api/v1/invoices/${invoice.id}/submit`);
    const body = await readJson(submitted);
    t.is(submitted.status, 200, JSON.stringify(body));
    t.like(body, { message: 'Invoice submitted.', data: { id: invoice.id, status: 'submitted', pdp_id: null } });
    t.truthy(body.data.submitted_at);

    const completed = await waitFor(async () => {
      const read = await get(key, `/api/v1/invoices/${invoice.id}`);
      return read.data.status === 'completed' && read.data;
    }, 30_000);
    t.regex(completed.pdp_id, /^\d+$/);
    t.deepEqual(
      completed.lifecycle_events.map((e: { code: string }) => e.code),
      ['api:uploaded', 'fr:200', 'fr:202', 'fr:205'],
    );
    t.like(completed.lifecycle_events[3], { label: 'Approuvée', reason: null });

    const again = await post(key, `/api/v1/invoices/${invoice.id}/submit`);
    t.is(again.status, 409, 'a completed invoice is not submitted twice');

    const paid = await post(key, `/api/v1/sandbox/invoices/${invoice.id}/simulate`, { status_code: 'fr:212' });
    const paidBody = await readJson(paid);
    t.is(paid.status, 200, JSON.stringify(paidBody));
    t.like(paidBody.data, { status: 'paid' });
    t.truthy(paidBody.data.paid_at);
    const ledger = await app
      .ownerDb('fiscal_entries')
      .where({ tenant_id: tenant.tenantId, entry_type: 'payment' })
      .select('canonical_data');
    t.is(ledger.length, 1, 'one payment entry in the fiscal ledger');
    t.like(JSON.parse(ledger[0].canonical_data), {
      invoice_id: invoice.id,
      amount: invoice.total_ttc.toFixed(2),
      direction: 'outgoing',
    });

    await waitFor(async () => eventsReceived(invoice.id).includes('invoice.paid'), 20_000);
    const names = eventsReceived(invoice.id);
    for (const name of ['invoice.created', 'invoice.transmitted', 'invoice.validated', 'invoice.paid']) {
      t.is(names.filter((n) => n === name).length, 1, `${name} delivered once`);
    }
    const times = eventTimes(invoice.id);
    const lifecycle = ['invoice.created', 'invoice.transmitted', 'invoice.validated', 'invoice.paid'];
    for (let i = 1; i < lifecycle.length; i++) {
      t.true(
        (times.get(lifecycle[i - 1]) ?? Number.NaN) <= (times.get(lifecycle[i]) ?? Number.NaN),
        `${lifecycle[i - 1]} happened before ${lifecycle[i]}`,
      );
    }
  },
);

test.serial(
  'a forced fr:210 rejects the invoice with its reason; bulk-submit and bulk-status report each invoice',
  async (t) => {
    const tenant = await tenantWithWebhook();
    const key = tenant.keys.sk_test;
    const a = await createInvoice(app.request, key, {}, '/api/v1/sandbox/invoices');
    const b = await createInvoice(app.request, key, {}, '/api/v1/sandbox/invoices');
    const unknown = '7d0c7f4e-46a4-4c61-9d63-1b9e6e0f7a11';
    const bulk = await app.request(
      '/api/v1/tenant/invoices/bulk-submit',
      postJson({ invoice_ids: [a.id, b.id, unknown] }, { 'X-Tenant-Key': key }),
    );
    const bulkBody = await readJson(bulk);
    t.is(bulk.status, 200, JSON.stringify(bulkBody));
    t.deepEqual(
      bulkBody.data.map((d: { status: string | null; error: { code: string } | null }) => [
        d.status,
        d.error?.code ?? null,
      ]),
      [
        ['submitted', null],
        ['submitted', null],
        [null, 'NOT_FOUND'],
      ],
    );
    await waitFor(async () => (await get(key, `/api/v1/invoices/${a.id}`)).data.pdp_id, 20_000);
    const rejected = await post(key, `/api/v1/sandbox/invoices/${a.id}/simulate`, {
      status_code: 'fr:210',
      reason: 'NON_CONFORME: prix unitaire erroné',
    });
    const rejectedBody = await readJson(rejected);
    t.is(rejected.status, 200, JSON.stringify(rejectedBody));
    t.like(rejectedBody.data, {
      status: 'rejected',
      status_message: 'fr:210 Refusée: NON_CONFORME: prix unitaire erroné',
    });
    // b walks on to completed; a, taken off its automatic path, stays rejected meanwhile.
    const statusBody = await waitFor(async () => {
      const res = await app.request(
        '/api/v1/tenant/invoices/bulk-status',
        postJson({ invoice_ids: [a.id, b.id] }, { 'X-Tenant-Key': key }),
      );
      const json = await readJson(res);
      return json.data[1].status === 'completed' && json;
    }, 30_000);
    t.like(statusBody.data[0], {
      id: a.id,
      status: 'rejected',
      status_message: 'fr:210 Refusée: NON_CONFORME: prix unitaire erroné',
    });
    t.like(statusBody.data[1], { id: b.id, status: 'completed' });
    t.regex(statusBody.data[1].pdp_id, /^\d+$/);
    const receivedRejection = await waitFor(
      async () =>
        receiver.requests
          .map((r) => JSON.parse(r.rawBody))
          .find((e) => e.event === 'invoice.rejected' && e.data.id === a.id),
      20_000,
    );
    t.is(receivedRejection.data.status_message, 'fr:210 Refusée: NON_CONFORME: prix unitaire erroné');

    const bad = await post(key, `/api/v1/sandbox/invoices/${b.id}/simulate`, { status_code: 'fr:999' });
    t.is(bad.status, 422);
    const production = await post(tenant.keys.sk_live, `/api/v1/sandbox/invoices/${b.id}/simulate`, {
      status_code: 'fr:212',
    });
    t.is(production.status, 403);
  },
);
