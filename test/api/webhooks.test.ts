import { randomUUID } from 'node:crypto';
import test from 'ava';
import { openHeaders, openWebhookSecret } from '../../domain/webhooks/webhook-secret.js';
import { expectInvalid as invalid, expectRefusal as refusal } from '../helpers/assertions.js';
import { postJson, readJson } from '../helpers/http.js';
import { type SeededUser, seedUser } from '../helpers/identities.js';
import { constructEvent, stripeAccepts } from '../helpers/stripe-verifier.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { type Receiver, startReceiver } from '../helpers/webhook-receiver.js';

let app: TestApp; // ALLOW_PRIVATE_URLS=true: endpoints may point at the receiver on 127.0.0.1
let production: TestApp; // the default: https and public addresses only
let receiver: Receiver;

test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0', ALLOW_PRIVATE_URLS: 'true' } });
  production = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
  receiver = await startReceiver((req) =>
    req.path.startsWith('/fail') ? { status: 500, body: 'receiver broke' } : { status: 200, body: 'thanks' },
  );
});
test.after.always(async () => {
  await receiver?.close();
  await app?.close();
  await production?.close();
});

const bearer = (user: SeededUser) => ({ Authorization: `Bearer ${user.token}` });
const create = (target: TestApp, user: SeededUser, body: Record<string, unknown>) =>
  target.request('/api/v1/webhooks', postJson(body, bearer(user)));
const sentTo = (url: string) => receiver.requests.filter((r) => `${receiver.url}${r.path}` === url);
const call = (user: SeededUser, method: string, path: string, body?: unknown) =>
  app.request(`/api/v1/webhooks${path}`, {
    method,
    headers: { ...bearer(user), ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
/** Each endpoint its own path: tests run concurrently against one receiver. */
const endpointBody = (overrides: Record<string, unknown> = {}) => ({
  url: `${receiver.url}/hooks/${randomUUID()}`,
  events: ['invoice.created', 'invoice.validated'],
  environment: 'sandbox',
  ...overrides,
});

test('POST /webhooks: 201 with the secret (whsec_ + 32) this once; reads show its last 4; stored sealed', async (t) => {
  const user = await seedUser(app.ownerDb);
  const input = endpointBody({ headers: { 'X-Receiver-Token': 'tok-123456' } });
  const res = await create(app, user, input);
  t.is(res.status, 201);
  const body = await readJson(res);
  t.regex(body.message, /shown only once/);
  t.like(body.data, {
    url: input.url,
    events: ['invoice.created', 'invoice.validated'],
    is_active: true,
    environment: 'sandbox',
    headers: ['X-Receiver-Token'],
    timeout_seconds: 15,
    retry_count: null,
    failure_count: 0,
  });
  const { id, secret } = body.data;
  t.regex(secret, /^whsec_[A-Za-z0-9]{32}$/);
  t.is(body.data.secret_last4, secret.slice(-4));

  const read = await call(user, 'GET', `/${id}`);
  const text = await read.text();
  t.is(read.status, 200);
  t.false(text.includes(secret), 'the secret is never shown again');
  t.false('secret' in JSON.parse(text).data);
  t.false(text.includes('tok-123456'), 'custom header values are never shown');

  const row = await app.ownerDb('webhook_endpoints').where({ id }).first();
  t.false(JSON.stringify(row).includes(secret), 'not in clear at rest');
  t.false(JSON.stringify(row).includes('tok-123456'));
  const appKey = app.deps.config.appKey!;
  t.is(openWebhookSecret(appKey, id, row.secret_encrypted), secret, 'AES-256-GCM under APP_KEY');
  t.deepEqual(openHeaders(appKey, id, row.headers_encrypted), { 'X-Receiver-Token': 'tok-123456' });
  t.throws(() => openWebhookSecret(appKey, user.userId, row.secret_encrypted), undefined, 'bound to its row');
});

test('POST /webhooks validates events against the catalogue, the environment, headers and bounds', async (t) => {
  const user = await seedUser(app.ownerDb);
  await invalid(t, await create(app, user, endpointBody({ events: ['invoice.exploded'] })), 'events.0');
  await invalid(t, await create(app, user, endpointBody({ events: [] })), 'events');
  await invalid(t, await create(app, user, endpointBody({ environment: 'staging' })), 'environment');
  await invalid(t, await create(app, user, { url: `${receiver.url}/x`, events: ['*'] }), 'environment');
  await invalid(t, await create(app, user, endpointBody({ timeout_seconds: 16 })), 'timeout_seconds');
  await invalid(t, await create(app, user, endpointBody({ retry_count: 21 })), 'retry_count');
  await invalid(t, await create(app, user, endpointBody({ url: 'ftp://127.0.0.1/x' })), 'url');
  await invalid(
    t,
    await create(app, user, endpointBody({ headers: { 'X-Service-Event': 'forged' } })),
    'headers.X-Service-Event',
    'is set by the service and cannot be overridden',
  );
  await invalid(t, await create(app, user, endpointBody({ headers: { 'Bad Name': 'x' } })), 'headers');
  await invalid(t, await create(app, user, endpointBody({ headers: { 'X-A': 'line\r\nInjected: 1' } })), 'headers.X-A');
  await invalid(t, await create(app, user, endpointBody({ headers: { 'X-A': 'café' } })), 'headers.X-A');
  t.is((await create(app, user, endpointBody({ events: ['*'] }))).status, 201, '`*` takes every event');
  t.is(Number((await app.ownerDb('webhook_endpoints').where({ tenant_id: user.tenantId }).count({ n: '*' }))[0].n), 1);
});

test('in production mode the URL must be https and public when saved (422 on url)', async (t) => {
  const user = await seedUser(production.ownerDb);
  for (const url of [
    'http://hooks.example.com/x',
    'https://127.0.0.1/x',
    'https://169.254.169.254/latest/meta-data/',
    'https://2130706433/x',
    'https://[::ffff:127.0.0.1]/x',
    'https://localhost/x',
  ]) {
    await invalid(t, await create(production, user, endpointBody({ url })), 'url');
  }
  const ok = await create(production, user, endpointBody({ url: 'https://hooks.example.com/einvoice' }));
  t.is(ok.status, 201, 'a public https URL is fine (this one does not resolve here; connect time checks again)');
});

test('list, read, update and delete are the owner’s only; another user gets 404 for every route', async (t) => {
  const user = await seedUser(app.ownerDb);
  const other = await seedUser(app.ownerDb);
  const a = (await readJson(await create(app, user, endpointBody()))).data;
  const b = (await readJson(await create(app, user, endpointBody({ environment: 'production' })))).data;
  await create(app, other, endpointBody());

  const list = await readJson(await call(user, 'GET', ''));
  t.deepEqual(
    list.data.map((e: { id: string }) => e.id),
    [b.id, a.id],
  );
  t.like(list.meta, { total: 2, current_page: 1 });
  const sandbox = await readJson(await call(user, 'GET', '?environment=sandbox'));
  t.deepEqual(
    sandbox.data.map((e: { id: string }) => e.id),
    [a.id],
  );

  for (const [method, path, body] of [
    ['GET', `/${a.id}`],
    ['PUT', `/${a.id}`, { events: ['*'] }],
    ['DELETE', `/${a.id}`],
    ['POST', `/${a.id}/test`],
    ['GET', `/${a.id}/logs`],
    ['POST', `/${a.id}/regenerate-secret`],
  ] as const) {
    await refusal(t, await call(other, method, path, body), 404, 'NOT_FOUND');
  }

  const updated = await call(user, 'PUT', `/${a.id}`, {
    events: ['signature.completed'],
    description: 'ERP',
    timeout_seconds: 5,
    retry_count: 2,
  });
  t.is(updated.status, 200);
  t.like((await readJson(updated)).data, {
    events: ['signature.completed'],
    description: 'ERP',
    timeout_seconds: 5,
    retry_count: 2,
  });
  await invalid(t, await call(user, 'PUT', `/${a.id}`, {}), 'body');

  const deleted = await call(user, 'DELETE', `/${a.id}`);
  t.deepEqual(await readJson(deleted), { message: 'Webhook endpoint deleted.', id: a.id });
  await refusal(t, await call(user, 'GET', `/${a.id}`), 404, 'NOT_FOUND');
  t.is((await readJson(await call(user, 'GET', ''))).meta.total, 1);
});

test('POST /webhooks/{id}/test makes a real signed delivery and logs it', async (t) => {
  const user = await seedUser(app.ownerDb);
  const created = (await readJson(await create(app, user, endpointBody({ headers: { 'X-Receiver-Token': 'tok' } }))))
    .data;
  const res = await call(user, 'POST', `/${created.id}/test`);
  t.is(res.status, 200);
  const result = await readJson(res);
  t.like(result, { success: true, status_code: 200, error: null });
  t.true(Number.isInteger(result.response_time_ms) && result.response_time_ms >= 0);

  const [got] = sentTo(created.url);
  t.is(got.headers['x-service-event'], 'webhook.test');
  t.is(got.headers['x-service-delivery'], result.delivery_id);
  t.is(got.headers['x-service-delivery-attempt'], '1');
  t.is(got.headers['x-receiver-token'], 'tok', 'custom headers are sent');
  t.is(got.headers['content-type'], 'application/json');
  const event = constructEvent(got.rawBody, String(got.headers['x-service-signature']), created.secret) as Record<
    string,
    unknown
  >;
  t.like(event, { event: 'webhook.test', environment: 'sandbox', data: { id: created.id } });

  const logs = await readJson(await call(user, 'GET', `/${created.id}/logs`));
  t.is(logs.data.length, 1);
  t.like(logs.data[0], {
    event: 'webhook.test',
    test: true,
    attempt: 1,
    success: true,
    response_status: 200,
    response_body: 'thanks',
    error_message: null,
    delivery_id: null,
    next_retry_at: null,
  });
});

test('a failing test call answers success false with the status, and the log keeps the answer', async (t) => {
  const user = await seedUser(app.ownerDb);
  const created = (
    await readJson(await create(app, user, endpointBody({ url: `${receiver.url}/fail/${randomUUID()}` })))
  ).data;
  const result = await readJson(await call(user, 'POST', `/${created.id}/test`));
  t.like(result, { success: false, status_code: 500, error: 'HTTP 500' });
  const logs = await readJson(await call(user, 'GET', `/${created.id}/logs?success=false`));
  t.like(logs.data[0], {
    success: false,
    response_status: 500,
    response_body: 'receiver broke',
    error_message: 'HTTP 500',
  });
  t.is((await readJson(await call(user, 'GET', `/${created.id}/logs?success=true`))).data.length, 0);
  const closed = (await readJson(await create(app, user, endpointBody({ url: 'http://127.0.0.1:1/hooks' })))).data;
  t.like(await readJson(await call(user, 'POST', `/${closed.id}/test`)), {
    success: false,
    status_code: null,
    error: 'connection refused',
  });
  const endpoint = await readJson(await call(user, 'GET', `/${created.id}`));
  t.is(endpoint.data.failure_count, 0, 'a test call does not change the endpoint');
});

test('regenerate-secret: a new secret, returned once; the old one no longer verifies anything', async (t) => {
  const user = await seedUser(app.ownerDb);
  const created = (await readJson(await create(app, user, endpointBody()))).data;
  const res = await call(user, 'POST', `/${created.id}/regenerate-secret`);
  t.is(res.status, 200);
  const regenerated = (await readJson(res)).data;
  t.regex(regenerated.secret, /^whsec_[A-Za-z0-9]{32}$/);
  t.not(regenerated.secret, created.secret);
  t.is(regenerated.secret_last4, regenerated.secret.slice(-4));
  await call(user, 'POST', `/${created.id}/test`);
  const [got] = sentTo(created.url);
  const header = String(got.headers['x-service-signature']);
  t.true(stripeAccepts(got.rawBody, header, regenerated.secret));
  t.false(stripeAccepts(got.rawBody, header, created.secret), 'the old secret is revoked at once');
});

test('a user keeps at most 20 endpoints (422 WEBHOOK_ENDPOINT_LIMIT_REACHED)', async (t) => {
  const user = await seedUser(app.ownerDb);
  for (let i = 0; i < 20; i++) t.is((await create(app, user, endpointBody())).status, 201);
  await refusal(t, await create(app, user, endpointBody()), 422, 'WEBHOOK_ENDPOINT_LIMIT_REACHED');
});

test('an Idempotency-Key on the test call replays its answer without a second delivery', async (t) => {
  const user = await seedUser(app.ownerDb);
  const created = (await readJson(await create(app, user, endpointBody()))).data;
  const send = () =>
    app.request(`/api/v1/webhooks/${created.id}/test`, {
      method: 'POST',
      headers: { ...bearer(user), 'Idempotency-Key': `test-${created.id}` },
    });
  const first = await send();
  const firstBody = await first.text();
  t.is(first.status, 200);
  const second = await send();
  t.is(second.headers.get('Idempotent-Replayed'), 'true');
  t.is(await second.text(), firstBody);
  t.is(sentTo(created.url).length, 1, 'one delivery only');
});
