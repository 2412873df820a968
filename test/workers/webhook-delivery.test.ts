import type { ChildProcess } from 'node:child_process';
import test from 'ava';
import { postJson, readJson } from '../helpers/http.js';
import { type SeededUser, seedPlatformTenant, seedUser, seedUserKey } from '../helpers/identities.js';
import { createInvoice } from '../helpers/invoices.js';
import { startProcess, stopProcess, WORKER_MAIN, waitFor } from '../helpers/processes.js';
import { constructEvent, stripeAccepts } from '../helpers/stripe-verifier.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { emitEvent } from '../helpers/webhook-events.js';
import { type ReceivedRequest, type Reply, startReceiver } from '../helpers/webhook-receiver.js';

/**
 * Deliveries by real worker processes to real receivers on 127.0.0.1 (ALLOW_PRIVATE_URLS=true),
 * verified with the `stripe` package's own webhook check. The retry schedule is compressed to
 * 1 s, 4 s, 9 s, and a worker looks for the jobs of a dead one every 2 s.
 */
let app: TestApp;
test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0', ALLOW_PRIVATE_URLS: 'true' } });
});
test.after.always(() => app?.close());

const WORKER_ENV = () => ({
  DATABASE_URL: app.database.url,
  APP_KEY: app.deps.config.appKey!.toString('hex'),
  ALLOW_PRIVATE_URLS: 'true',
  WEBHOOK_RETRY_SCHEDULE: '1,4,9',
  WORKER_SUPERVISE_SECONDS: '2',
});
const startWorker = async (): Promise<ChildProcess> => (await startProcess(WORKER_MAIN, WORKER_ENV(), 'ready')).child;

async function createEndpoint(
  user: SeededUser,
  body: Record<string, unknown>,
): Promise<{ id: string; secret: string }> {
  const res = await app.request('/api/v1/webhooks', postJson(body, { Authorization: `Bearer ${user.token}` }));
  const json = await readJson(res);
  if (res.status !== 201) throw new Error(JSON.stringify(json));
  return json.data;
}

const logsOf = async (user: SeededUser, endpointId: string) =>
  (
    await readJson(
      await app.request(`/api/v1/webhooks/${endpointId}/logs`, { headers: { Authorization: `Bearer ${user.token}` } }),
    )
  ).data;

const header = (request: ReceivedRequest, name: string) => String(request.headers[name]);

test.serial('several event types reach a receiver on 127.0.0.1, each passing stripe’s constructEvent', async (t) => {
  const receiver = await startReceiver();
  const worker = await startWorker();
  try {
    const user = await seedUser(app.ownerDb);
    const all = await createEndpoint(user, { url: `${receiver.url}/all`, events: ['*'], environment: 'sandbox' });
    const invoicesOnly = await createEndpoint(user, {
      url: `${receiver.url}/invoices`,
      events: ['invoice.created'],
      environment: 'sandbox',
    });
    await createEndpoint(user, { url: `${receiver.url}/live`, events: ['*'], environment: 'production' });
    const tenant = await seedPlatformTenant(app.ownerDb);
    const put = await app.request('/api/v1/tenant/me', {
      method: 'PUT',
      headers: { 'X-Tenant-Key': tenant.keys.sk_test, 'Content-Type': 'application/json' },
      body: JSON.stringify({ webhook_url: `${receiver.url}/tenant` }),
    });
    const tenantSecret = (await readJson(put)).data.webhook_secret;

    // A real invoice by the user's sandbox key, one by the tenant's key, and other event types.
    const invoice = await createInvoice(app.request, await seedUserKey(app.ownerDb, user));
    const tenantInvoice = await createInvoice(app.request, tenant.keys.sk_test);
    const emitted = {
      'invoice.validated': await emitEvent(app.deps, user.tenantId, 'sandbox', 'invoice.validated', { id: invoice.id }),
      'signature.completed': await emitEvent(app.deps, user.tenantId, 'sandbox', 'signature.completed', {
        id: '2f1c1a52-6d5f-4a56-9a3a-0e5b5d7c1e11',
        status: 'completed',
      }),
      'invoice.rejected': await emitEvent(app.deps, user.tenantId, 'sandbox', 'invoice.rejected', {
        id: invoice.id,
        status_message: 'fr:210 Refusée',
      }),
    };

    // /all: 4 events; /invoices: 1; /tenant: 1; /live: none (production only).
    const requests = await receiver.received(6);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    t.is(receiver.requests.length, 6, 'nothing else arrives');
    const at = (path: string) => requests.filter((r) => r.path === path);
    t.is(at('/live').length, 0, 'a production endpoint gets no sandbox event');
    t.deepEqual(
      at('/all')
        .map((r) => header(r, 'x-service-event'))
        .sort(),
      ['invoice.created', 'invoice.rejected', 'invoice.validated', 'signature.completed'],
    );
    t.deepEqual(
      at('/invoices').map((r) => header(r, 'x-service-event')),
      ['invoice.created'],
    );

    const secretFor: Record<string, string> = {
      '/all': all.secret,
      '/invoices': invoicesOnly.secret,
      '/tenant': tenantSecret,
    };
    const deliveryIds = new Set<string>();
    for (const request of requests) {
      const secret = secretFor[request.path];
      const signature = header(request, 'x-service-signature');
      t.regex(signature, /^t=\d{10},v1=[0-9a-f]{64}$/);
      const event = constructEvent(request.rawBody, signature, secret) as Record<string, unknown>;
      t.deepEqual(Object.keys(event), ['id', 'event', 'timestamp', 'environment', 'data'], 'the envelope');
      t.is(event.event, header(request, 'x-service-event'));
      t.is(event.environment, 'sandbox');
      t.is(header(request, 'x-service-delivery-attempt'), '1');
      t.is(header(request, 'content-type'), 'application/json');
      deliveryIds.add(header(request, 'x-service-delivery'));

      // The same check fails for a changed body, a wrong secret and a stale timestamp.
      t.false(stripeAccepts(request.rawBody.replace('"sandbox"', '"production"'), signature, secret));
      t.false(stripeAccepts(`${request.rawBody} `, signature, secret));
      t.false(stripeAccepts(request.rawBody, signature, `whsec_${'x'.repeat(32)}`));
      t.false(stripeAccepts(request.rawBody, signature, secret, request.at + 301_000), '301 s later');
      t.true(stripeAccepts(request.rawBody, signature, secret, request.at + 250_000));
    }
    t.is(deliveryIds.size, 6, 'one delivery id per (event, endpoint)');

    const rejected = at('/all').find((r) => header(r, 'x-service-event') === 'invoice.rejected')!;
    t.like(JSON.parse(rejected.rawBody), {
      id: emitted['invoice.rejected'],
      data: { id: invoice.id, status_message: 'fr:210 Refusée' },
    });
    const tenantEvent = JSON.parse(at('/tenant')[0].rawBody);
    t.like(tenantEvent, { event: 'invoice.created', data: { id: tenantInvoice.id } });
    const rows = await waitFor(async () => {
      const found = await app.ownerDb('webhook_deliveries').whereIn('id', [...deliveryIds]);
      return found.every((row) => row.status === 'succeeded') && found;
    });
    t.true(rows.length === 6 && rows.every((row) => row.attempts === 1));

    // The tenant reads the attempts to its webhook_url; another tenant sees none of them.
    const tenantLogs = async (key: string) =>
      readJson(await app.request('/api/v1/tenant/webhook-logs', { headers: { 'X-Tenant-Key': key } }));
    const logs = await tenantLogs(tenant.keys.sk_test);
    t.is(logs.meta.total, 1);
    t.is((await tenantLogs(tenant.keys.sk_live)).meta.total, 0, 'a production key reads production logs only');
    t.like(logs.data[0], { event: 'invoice.created', attempt: 1, success: true, response_status: 200 });
    t.is(logs.data[0].delivery_id, header(at('/tenant')[0], 'x-service-delivery'));
    const stranger = await seedPlatformTenant(app.ownerDb);
    t.is((await tenantLogs(stranger.keys.sk_test)).meta.total, 0);
  } finally {
    await stopProcess(worker);
    await receiver.close();
  }
});

test.serial(
  'a receiver failing 3 times then succeeding: 4 logged attempts, growing delays, one delivery id',
  async (t) => {
    const receiver = await startReceiver(
      (_req, index): Reply => (index < 3 ? { status: 503, body: `down ${index}` } : { status: 200 }),
    );
    const worker = await startWorker();
    try {
      const user = await seedUser(app.ownerDb);
      const endpoint = await createEndpoint(user, {
        url: `${receiver.url}/flaky`,
        events: ['invoice.paid'],
        environment: 'production',
      });
      const eventId = await emitEvent(app.deps, user.tenantId, 'production', 'invoice.paid', { id: user.userId });
      const requests = await receiver.received(4, 60_000);

      t.is(new Set(requests.map((r) => header(r, 'x-service-delivery'))).size, 1, 'the same X-Service-Delivery');
      t.deepEqual(
        requests.map((r) => header(r, 'x-service-delivery-attempt')),
        ['1', '2', '3', '4'],
      );
      t.is(new Set(requests.map((r) => r.rawBody)).size, 1, 'the same body every time');
      for (const request of requests) {
        t.true(stripeAccepts(request.rawBody, header(request, 'x-service-signature'), endpoint.secret));
      }
      const gaps = requests.slice(1).map((r, i) => r.at - requests[i].at);
      // Schedule 1, 4, 9 s with ±10 % jitter, plus up to one 2 s polling interval.
      t.true(gaps[0] >= 900 && gaps[0] < gaps[1] && gaps[1] < gaps[2], `gaps ${gaps.join(', ')} ms`);
      t.true(gaps[1] >= 3600 && gaps[2] >= 8100, `gaps ${gaps.join(', ')} ms`);

      const delivery = await waitFor(async () => {
        const row = await app.ownerDb('webhook_deliveries').where({ event_id: eventId }).first();
        return row?.status === 'succeeded' && row;
      });
      t.is(delivery.id, header(requests[0], 'x-service-delivery'));
      t.is(delivery.attempts, 4);
      const logs = (await logsOf(user, endpoint.id)).reverse();
      t.is(logs.length, 4);
      t.deepEqual(
        logs.map((l: { attempt: number; success: boolean; response_status: number }) => [
          l.attempt,
          l.success,
          l.response_status,
        ]),
        [
          [1, false, 503],
          [2, false, 503],
          [3, false, 503],
          [4, true, 200],
        ],
      );
      t.true(logs.every((l: { delivery_id: string }) => l.delivery_id === delivery.id));
      t.is(logs[0].response_body, 'down 0');
      t.is(logs[0].error_message, 'HTTP 503');
      t.truthy(logs[2].next_retry_at);
      t.is(logs[3].next_retry_at, null);
      const times = logs.map((l: { created_at: string }) => Date.parse(l.created_at));
      const logged = times.slice(1).map((time: number, i: number) => time - times[i]);
      t.true(logged[0] < logged[1] && logged[1] < logged[2], `logged gaps ${logged.join(', ')} ms`);
      const row = await app.ownerDb('webhook_endpoints').where({ id: endpoint.id }).first();
      t.like(row, { failure_count: 0, failing_since: null, is_active: true });
    } finally {
      await stopProcess(worker);
      await receiver.close();
    }
  },
);

test.serial('killing a worker during a delivery loses nothing: the next worker delivers it', async (t) => {
  // The first request is held open, so the worker is killed mid-call; later ones are answered.
  const receiver = await startReceiver((_req, index): Reply => (index === 0 ? 'hang' : { status: 200 }));
  const first = await startWorker();
  let second: ChildProcess | undefined;
  try {
    const user = await seedUser(app.ownerDb);
    const endpoint = await createEndpoint(user, {
      url: `${receiver.url}/slow`,
      events: ['credit_note.created'],
      environment: 'sandbox',
    });
    const eventId = await emitEvent(app.deps, user.tenantId, 'sandbox', 'credit_note.created', { id: user.userId });
    const [inFlight] = await receiver.received(1);
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    const pending = await app.ownerDb('webhook_deliveries').where({ event_id: eventId }).first();
    t.like(pending, { status: 'pending', attempts: 0 }, 'the killed attempt was never recorded');

    second = await startWorker();
    const [, redelivered] = await receiver.received(2, 60_000);
    t.is(header(redelivered, 'x-service-delivery'), header(inFlight, 'x-service-delivery'));
    t.is(header(redelivered, 'x-service-delivery-attempt'), '1', 'the same attempt, made again');
    t.is(redelivered.rawBody, inFlight.rawBody);
    t.true(stripeAccepts(redelivered.rawBody, header(redelivered, 'x-service-signature'), endpoint.secret));
    const delivered = await waitFor(async () => {
      const row = await app.ownerDb('webhook_deliveries').where({ event_id: eventId }).first();
      return row?.status === 'succeeded' && row;
    });
    t.is(delivered.attempts, 1);
    const logs = await logsOf(user, endpoint.id);
    t.is(logs.length, 1);
    t.like(logs[0], { attempt: 1, success: true, delivery_id: delivered.id });
  } finally {
    if (first.exitCode === null && first.signalCode === null) first.kill('SIGKILL');
    if (second) await stopProcess(second);
    await receiver.close();
  }
});
