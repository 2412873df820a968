import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import { systemCaller } from '../../domain/shared/caller.js';
import type { EventName } from '../../domain/shared/event-catalogue.js';
import { execute } from '../../domain/shared/execute.js';
import { prepareWebhookDeliveries } from '../../domain/webhooks/operations/prepare-webhook-delivery.js';
import {
  recordWebhookAttempt,
  recordWebhookAttempts,
} from '../../domain/webhooks/operations/record-webhook-attempt.js';
import { deliverWebhook } from '../../workers/handlers/deliver-webhook.js';
import { dispatchEvent } from '../../workers/handlers/dispatch-event.js';
import { notifyWebhookDisabled } from '../../workers/handlers/notify-webhook-disabled.js';
import { postJson, readJson } from '../helpers/http.js';
import { type SeededUser, seedUser } from '../helpers/identities.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { emitEvent } from '../helpers/webhook-events.js';
import { type Receiver, startReceiver } from '../helpers/webhook-receiver.js';

/**
 * What follows an attempt, with the handlers called directly (no worker process): 410 and days of
 * failures disable the endpoint and tell its owner; a job run twice changes nothing; attempts run
 * out; pausing stops the retries. Schedule 5 s, 300 s.
 */
let app: TestApp;
let receiver: Receiver;
let mailLog: string;

test.before(async () => {
  mailLog = path.join(await mkdtemp(path.join(tmpdir(), 'webhook-mail-')), 'mail.log');
  app = await startTestApp({
    env: { RATE_LIMIT_SCALE: '0', ALLOW_PRIVATE_URLS: 'true', WEBHOOK_RETRY_SCHEDULE: '5,300', MAIL_LOG: mailLog },
  });
  receiver = await startReceiver((req) => {
    if (req.path.startsWith('/gone')) return { status: 410 };
    if (req.path.startsWith('/fail')) return { status: 500 };
    return { status: 200 };
  });
});
test.after.always(async () => {
  await receiver?.close();
  await app?.close();
});

const bearer = (user: SeededUser) => ({ Authorization: `Bearer ${user.token}` });
async function endpoint(user: SeededUser, path: string, extra: Record<string, unknown> = {}) {
  const res = await app.request(
    '/api/v1/webhooks',
    // Each endpoint its own path (tests run concurrently against one receiver).
    postJson(
      { url: `${receiver.url}${path}/${randomUUID()}`, events: ['*'], environment: 'sandbox', ...extra },
      bearer(user),
    ),
  );
  return (await readJson(res)).data as { id: string; secret: string; url: string };
}
const put = (user: SeededUser, id: string, body: unknown) =>
  app.request(`/api/v1/webhooks/${id}`, {
    method: 'PUT',
    headers: { ...bearer(user), 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

/** Emits an event and dispatches it as the dispatch-event job would; returns its deliveries by endpoint. */
async function dispatched(user: SeededUser, name: EventName = 'invoice.created'): Promise<Record<string, string>> {
  const eventId = await emitEvent(app.deps, user.tenantId, 'sandbox', name, { id: user.userId });
  await dispatchEvent({ eventId, tenantId: user.tenantId }, app.deps);
  const rows = await app.ownerDb('webhook_deliveries').where({ event_id: eventId });
  return Object.fromEntries(rows.map((row) => [row.endpoint_id, row.id]));
}

const deliver = (user: SeededUser, deliveryId: string, attempt = 1) =>
  deliverWebhook({ tenantId: user.tenantId, deliveryId, attempt }, app.deps) as Promise<Record<string, unknown>>;
const sentTo = (url: string) => receiver.requests.filter((r) => `${receiver.url}${r.path}` === url).length;
const deliveryRow = (id: string) => app.ownerDb('webhook_deliveries').where({ id }).first();
const endpointRow = (id: string) => app.ownerDb('webhook_endpoints').where({ id }).first();
const jobs = async (queue: string, key: string, value: string) =>
  (
    await app.ownerDb.raw(
      'select data, start_after from pgboss.job where name = ? and data->>? = ? order by created_on',
      [queue, key, value],
    )
  ).rows as { data: Record<string, unknown>; start_after: Date }[];

test('410 Gone disables the endpoint at once, stops its pending deliveries and tells the owner', async (t) => {
  const user = await seedUser(app.ownerDb);
  const gone = await endpoint(user, '/gone');
  const watcher = await endpoint(user, '/watch', { events: ['webhook_endpoint.disabled'] });
  const first = (await dispatched(user))[gone.id];
  const second = (await dispatched(user))[gone.id];

  const result = await deliver(user, first);
  t.like(result, { success: false, status_code: 410, recorded: true, status: 'failed', next_attempt_at: null });
  t.like(await endpointRow(gone.id), { is_active: false, disabled_reason: 'The endpoint answered 410 Gone.' });
  t.truthy((await endpointRow(gone.id)).disabled_at);
  t.like(await deliveryRow(second), { status: 'cancelled', attempts: 0 });
  t.like(await deliver(user, second), { skipped: 'delivery cancelled' });
  t.is(sentTo(gone.url), 1, 'nothing more is sent to it');

  // The event goes to the owner's other endpoint that takes it.
  const event = await app
    .ownerDb('events')
    .where({ tenant_id: user.tenantId, name: 'webhook_endpoint.disabled' })
    .first();
  t.like(event.data, { id: gone.id, url: gone.url, reason: 'The endpoint answered 410 Gone.' });
  await dispatchEvent({ eventId: event.id, tenantId: user.tenantId }, app.deps);
  const notices = await app.ownerDb('webhook_deliveries').where({ event_id: event.id });
  t.deepEqual(
    notices.map((row) => row.endpoint_id),
    [watcher.id],
  );

  // And the technical e-mail.
  t.is((await jobs('notify-webhook-disabled', 'endpointId', gone.id)).length, 1);
  t.like(await notifyWebhookDisabled({ tenantId: user.tenantId, endpointId: gone.id }, app.deps), { sent: true });
  const mail = await readFile(mailLog, 'utf8');
  t.true(mail.includes(`To: ${user.email}`));
  t.true(mail.includes(`webhook endpoint ${gone.url}`));
  t.true(mail.includes('Reason: The endpoint answered 410 Gone.'));

  // Re-enabled by its owner, it takes deliveries again.
  const resumed = await readJson(await put(user, gone.id, { is_active: true }));
  t.like(resumed.data, { is_active: true, disabled_at: null, disabled_reason: null, failure_count: 0 });
});

test('a failure schedules the next attempt with jitter; failing for 3 days disables the endpoint', async (t) => {
  const user = await seedUser(app.ownerDb);
  const failing = await endpoint(user, '/fail');
  const first = (await dispatched(user))[failing.id];
  const started = Date.now();
  const result = await deliver(user, first);
  const finished = Date.now();
  t.like(result, { success: false, status_code: 500, status: 'pending' });
  const [next] = await jobs('deliver-webhook', 'deliveryId', first).then((rows) =>
    rows.filter((r) => r.data.attempt === 2),
  );
  t.truthy(next, 'attempt 2 is queued');
  // 5 s ± 10 % from the moment the attempt was recorded, somewhere between the call and its answer
  const at = next.start_after.getTime();
  t.true(at >= started + 4500 && at <= finished + 5500, `about 5 s ± 10 %: ${at - started} ms after the call`);
  t.like(await endpointRow(failing.id), { is_active: true, failure_count: 1 });

  // Failing for two days: still active. Past three days: disabled, with the reason.
  await app
    .ownerDb('webhook_endpoints')
    .where({ id: failing.id })
    .update({ failing_since: new Date(Date.now() - 2 * 86_400_000) });
  await deliver(user, first, 2);
  t.like(await endpointRow(failing.id), { is_active: true, failure_count: 2 });
  await app
    .ownerDb('webhook_endpoints')
    .where({ id: failing.id })
    .update({ failing_since: new Date(Date.now() - 3 * 86_400_000 - 60_000) });
  const other = (await dispatched(user))[failing.id];
  await deliver(user, other);
  const row = await endpointRow(failing.id);
  t.false(row.is_active);
  t.regex(row.disabled_reason, /^Every delivery attempt failed for 3 days \(since /);
  t.like(await deliveryRow(first), { status: 'cancelled' }, 'its pending retry is stopped');
});

test('a job run again after its attempt was recorded sends and records nothing', async (t) => {
  const user = await seedUser(app.ownerDb);
  const ok = await endpoint(user, '/ok');
  const delivery = (await dispatched(user))[ok.id];
  t.like(await deliver(user, delivery), { success: true, status: 'succeeded' });
  t.like(await deliver(user, delivery), { skipped: 'delivery succeeded' });
  t.is(sentTo(ok.url), 1);
  const again = await execute(
    recordWebhookAttempt,
    {
      delivery_id: delivery,
      attempt: 1,
      url: `${receiver.url}/ok`,
      attempted_at: new Date().toISOString(),
      success: false,
      status_code: 500,
      response_time_ms: 1,
      response_body: null,
      error: 'HTTP 500',
    },
    systemCaller(user.tenantId),
    app.deps,
  );
  t.deepEqual(again, { recorded: false, status: 'succeeded', next_attempt_at: null });
  t.is((await app.ownerDb('webhook_attempts').where({ delivery_id: delivery })).length, 1);
  await t.throwsAsync(
    app.ownerDb('webhook_attempts').where({ delivery_id: delivery }).update({ success: false }),
    { message: /append-only/ },
    'the log cannot be rewritten',
  );
});

test('retry_count caps the attempts; dispatching an event twice delivers it once per endpoint', async (t) => {
  const user = await seedUser(app.ownerDb);
  const once = await endpoint(user, '/fail', { retry_count: 0 });
  const eventId = await emitEvent(app.deps, user.tenantId, 'sandbox', 'invoice.created', { id: user.userId });
  await dispatchEvent({ eventId, tenantId: user.tenantId }, app.deps);
  await app.ownerDb('events').where({ id: eventId }).update({ dispatched_at: null }); // as if the job ran again
  await dispatchEvent({ eventId, tenantId: user.tenantId }, app.deps);
  const rows = await app.ownerDb('webhook_deliveries').where({ event_id: eventId });
  t.is(rows.length, 1);
  t.is(rows[0].max_attempts, 1);
  t.is((await jobs('deliver-webhook', 'deliveryId', rows[0].id)).length, 1, 'one first job');
  t.like(await deliver(user, rows[0].id), { success: false, status: 'failed', next_attempt_at: null });
  t.is((await jobs('deliver-webhook', 'deliveryId', rows[0].id)).length, 1, 'no retry queued');
  t.like(await endpointRow(once.id), { is_active: true, failure_count: 1 });
});

test('pausing an endpoint stops its pending retries; a later success ends the failure streak', async (t) => {
  const user = await seedUser(app.ownerDb);
  const flaky = await endpoint(user, '/fail');
  const delivery = (await dispatched(user))[flaky.id];
  await deliver(user, delivery);
  t.like(await deliveryRow(delivery), { status: 'pending', attempts: 1 });
  t.is((await put(user, flaky.id, { is_active: false })).status, 200);
  t.like(await deliveryRow(delivery), { status: 'cancelled' });
  t.like(await deliver(user, delivery, 2), { skipped: 'delivery cancelled' });
  t.is(
    (await readJson(await put(user, flaky.id, { is_active: true, url: `${receiver.url}/ok` }))).data.failure_count,
    0,
  );

  await app
    .ownerDb('webhook_endpoints')
    .where({ id: flaky.id })
    .update({ url: `${receiver.url}/fail` });
  const next = (await dispatched(user))[flaky.id];
  await deliver(user, next);
  t.like(await endpointRow(flaky.id), { failure_count: 1 });
  t.truthy((await endpointRow(flaky.id)).failing_since);
  await app
    .ownerDb('webhook_endpoints')
    .where({ id: flaky.id })
    .update({ url: `${receiver.url}/ok` });
  t.like(await deliver(user, next, 2), { success: true, status: 'succeeded' });
  t.like(await endpointRow(flaky.id), { failure_count: 0, failing_since: null });
});

test('a batch of attempts moves its endpoint as if each came in the order made', async (t) => {
  const user = await seedUser(app.ownerDb);
  const target = await endpoint(user, '/ok');
  const deliveries = await Promise.all([1, 2, 3, 4].map(async () => (await dispatched(user))[target.id]));
  const base = Date.now();
  const attempt = (deliveryId: string, second: number, success: boolean) => ({
    delivery_id: deliveryId,
    tenant_id: user.tenantId,
    attempt: 1,
    url: target.url,
    attempted_at: new Date(base + second * 1000).toISOString(),
    success,
    status_code: success ? 200 : 500,
    response_time_ms: 1,
    response_body: null,
    error: success ? null : 'HTTP 500',
  });
  // listed out of order: a failure at +1 s, a success at +2 s, failures at +3 s and +4 s
  const { attempts } = await execute(
    recordWebhookAttempts,
    {
      attempts: [
        attempt(deliveries[3], 4, false),
        attempt(deliveries[1], 2, true),
        attempt(deliveries[0], 1, false),
        attempt(deliveries[2], 3, false),
      ],
    },
    systemCaller(),
    app.deps,
  );
  t.deepEqual(
    attempts.map((a) => a.status),
    ['pending', 'succeeded', 'pending', 'pending'],
  );
  const row = await endpointRow(target.id);
  t.is(row.failure_count, 2, 'the streak counts the failures after the last success only');
  t.is(row.failing_since.getTime(), base + 3000);
  t.is(row.last_success_at.getTime(), base + 2000);
  t.is(row.last_failure_at.getTime(), base + 4000);
  t.is(row.last_triggered_at.getTime(), base + 4000);
  t.is((await app.ownerDb('webhook_attempts').whereIn('delivery_id', deliveries)).length, 4);

  // a later batch of failures alone extends the streak from where it stands
  const more = (await dispatched(user))[target.id];
  await execute(recordWebhookAttempts, { attempts: [attempt(more, 5, false)] }, systemCaller(), app.deps);
  t.like(await endpointRow(target.id), { failure_count: 3 });
  t.is((await endpointRow(target.id)).failing_since.getTime(), base + 3000);

  // asked with another tenant, a delivery is not found: nothing is recorded or moved
  const other = await seedUser(app.ownerDb);
  const foreign = (await dispatched(user))[target.id];
  const [answer] = (
    await execute(
      recordWebhookAttempts,
      { attempts: [{ ...attempt(foreign, 6, true), tenant_id: other.tenantId }] },
      systemCaller(),
      app.deps,
    )
  ).attempts;
  t.like(answer, { recorded: false, status: 'cancelled' });
  t.like(await app.ownerDb('webhook_deliveries').where({ id: foreign }).first(), { attempts: 0, status: 'pending' });
  t.is((await app.ownerDb('webhook_attempts').where({ delivery_id: foreign })).length, 0);
  t.like(await endpointRow(target.id), { failure_count: 3 });
  const { deliveries: prepared } = await execute(
    prepareWebhookDeliveries,
    { deliveries: [{ delivery_id: foreign, attempt: 1, tenant_id: other.tenantId }] },
    systemCaller(),
    app.deps,
  );
  t.deepEqual(prepared, [{ send: false, reason: 'no such delivery' }]);
});
