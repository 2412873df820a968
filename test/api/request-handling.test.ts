import test from 'ava';
import { ROUTES } from '../../api/routes/index.js';
import { SCHEMAS } from '../../domain/container.js';
import { testRoutes, testSchemaRegistry } from '../fixtures/test-routes.js';
import { postJson, readJson } from '../helpers/http.js';
import { waitFor } from '../helpers/processes.js';
import { seedTenant } from '../helpers/seed.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let tenantId: string;

test.before(async () => {
  app = await startTestApp({
    env: { CORS_ORIGINS: 'https://app.example.com' },
    override: (c) => c.register(SCHEMAS, { useValue: testSchemaRegistry() }),
    routes: () => [...ROUTES, ...testRoutes],
  });
  tenantId = (await seedTenant(app.ownerDb)).id;
});
test.after.always(() => app?.close());

const order = (extra: Record<string, unknown> = {}, tenant = tenantId) => ({
  tenant_id: tenant,
  customer_email: 'buyer@example.com',
  lines: [{ description: 'Consulting', quantity: 1 }],
  ...extra,
});
const eventCount = async (tenant = tenantId) =>
  Number((await app.ownerDb('events').where({ tenant_id: tenant }).count({ n: '*' }))[0].n);

test('a valid body runs the command: 201 with {message, data}', async (t) => {
  const res = await app.request('/api/test/orders', postJson(order()));
  t.is(res.status, 201);
  const body = await readJson(res);
  t.is(body.message, 'Order recorded.');
  t.regex(body.data.event_id, /^[0-9a-f-]{36}$/);
});

test('malformed JSON is a 400 in the error shape', async (t) => {
  const res = await app.request('/api/test/orders', postJson('{"tenant_id": '));
  t.is(res.status, 400);
  t.deepEqual(await readJson(res), {
    message: 'The request body is not valid JSON.',
    error: 'invalid_json',
    code: 'INVALID_JSON',
    error_code: 'INVALID_JSON',
  });
});

test('a body over the route limit is a 413 in the error shape', async (t) => {
  const lines = Array.from({ length: 100 }, (_, i) => ({ description: `line ${i} ${'x'.repeat(20)}`, quantity: 1 }));
  const res = await app.request('/api/test/orders', postJson(order({ lines })));
  t.is(res.status, 413);
  t.like(await readJson(res), {
    code: 'PAYLOAD_TOO_LARGE',
    error_code: 'PAYLOAD_TOO_LARGE',
    error: 'payload_too_large',
  });
});

test('a body that is not JSON is a 415', async (t) => {
  const res = await app.request('/api/test/orders', {
    method: 'POST',
    headers: { 'Content-Type': 'text/plain' },
    body: 'hello',
  });
  t.is(res.status, 415);
  t.like(await readJson(res), { code: 'UNSUPPORTED_MEDIA_TYPE' });
});

test('validation failures are 422 {message, errors} keyed by dotted paths', async (t) => {
  const res = await app.request(
    '/api/test/orders',
    postJson({
      tenant_id: 'not-a-uuid',
      customer_email: 'nope',
      website: 'not a uri',
      due_date: '2026-02-30x',
      lines: [
        { description: 'ok', quantity: 1 },
        { description: 'bad', quantity: 0, colour: 'red' },
      ],
      surprise: true,
    }),
  );
  t.is(res.status, 422);
  const body = await readJson(res);
  t.deepEqual(Object.keys(body).sort(), ['errors', 'message']);
  t.deepEqual(body.errors, {
    tenant_id: ['must be a valid uuid'],
    customer_email: ['must be a valid email'],
    website: ['must be a valid uri'],
    due_date: ['must be a valid date'],
    'lines.1.quantity': ['must be >= 0.001'],
    'lines.1.colour': ['is not an allowed property'],
    surprise: ['is not an allowed property'],
  });
  t.is(typeof body.message, 'string');
});

test('a missing required field is reported at its path', async (t) => {
  const res = await app.request('/api/test/orders', postJson({ tenant_id: tenantId, lines: [{ quantity: 2 }] }));
  t.is(res.status, 422);
  t.deepEqual((await readJson(res)).errors, {
    customer_email: ['is required'],
    'lines.0.description': ['is required'],
  });
});

test('Idempotency-Key: a replay returns the first response byte for byte and writes nothing more', async (t) => {
  const key = `replay-${Date.now()}`;
  const own = (await seedTenant(app.ownerDb, 'Replay tenant')).id;
  const first = await app.request('/api/test/orders', postJson(order({}, own), { 'Idempotency-Key': key }));
  const firstText = await first.text();
  const second = await app.request('/api/test/orders', postJson(order({}, own), { 'Idempotency-Key': key }));
  t.is(first.status, 201);
  t.is(second.status, 201);
  t.is(await second.text(), firstText);
  t.is(second.headers.get('idempotent-replayed'), 'true');
  t.is(first.headers.get('idempotent-replayed'), null);
  t.not(second.headers.get('x-request-id'), first.headers.get('x-request-id'));
  t.is(await eventCount(own), 1);
  // Stored sealed (AES-256-GCM under APP_KEY): a response may carry a secret shown once.
  const stored = await app.ownerDb('idempotency_keys').where({ key }).first();
  t.regex(stored.response_body, /^v2:/);
  t.false(stored.response_body.includes(JSON.parse(firstText).data.event_id));
});

test('Idempotency-Key: the same key with another body is a 422 IDEMPOTENCY_KEY_MISMATCH', async (t) => {
  const key = `mismatch-${Date.now()}`;
  t.is((await app.request('/api/test/orders', postJson(order(), { 'Idempotency-Key': key }))).status, 201);
  const res = await app.request(
    '/api/test/orders',
    postJson(order({ customer_email: 'other@example.com' }), { 'Idempotency-Key': key }),
  );
  t.is(res.status, 422);
  t.like(await readJson(res), { code: 'IDEMPOTENCY_KEY_MISMATCH', error_code: 'IDEMPOTENCY_KEY_MISMATCH' });
});

test('Idempotency-Key: a concurrent duplicate is a 409 IDEMPOTENCY_KEY_IN_USE', async (t) => {
  const key = `concurrent-${Date.now()}`;
  const slow = app.request('/api/test/orders', postJson(order({ delay_ms: 1500 }), { 'Idempotency-Key': key }));
  // The duplicate is sent once the first request holds the key, whatever the machine's load.
  await waitFor(() => app.ownerDb('idempotency_keys').where({ key, status: 'in_progress' }).first());
  const duplicate = await app.request(
    '/api/test/orders',
    postJson(order({ delay_ms: 1500 }), { 'Idempotency-Key': key }),
  );
  t.is(duplicate.status, 409);
  t.like(await readJson(duplicate), { code: 'IDEMPOTENCY_KEY_IN_USE' });
  t.is((await slow).status, 201);
});

test('Idempotency-Key: a validation failure is not stored, so the corrected request runs', async (t) => {
  const key = `validation-${Date.now()}`;
  const bad = await app.request(
    '/api/test/orders',
    postJson(order({ customer_email: 'x' }), { 'Idempotency-Key': key }),
  );
  t.is(bad.status, 422);
  const good = await app.request('/api/test/orders', postJson(order(), { 'Idempotency-Key': key }));
  t.is(good.status, 201);
  t.is(good.headers.get('idempotent-replayed'), null);
});

test('Idempotency-Key longer than 255 characters is refused', async (t) => {
  const res = await app.request('/api/test/orders', postJson(order(), { 'Idempotency-Key': 'k'.repeat(256) }));
  t.is(res.status, 422);
  t.deepEqual((await readJson(res)).errors, { 'Idempotency-Key': ['must be at most 255 characters'] });
});

test('CORS: an allowed origin gets credentials; another origin gets no CORS headers', async (t) => {
  const allowed = await app.request('/api/v1/pricing', { headers: { Origin: 'https://app.example.com' } });
  t.is(allowed.headers.get('access-control-allow-origin'), 'https://app.example.com');
  t.is(allowed.headers.get('access-control-allow-credentials'), 'true');
  const other = await app.request('/api/v1/pricing', { headers: { Origin: 'https://evil.example.net' } });
  t.is(other.headers.get('access-control-allow-origin'), null);
  t.is(other.status, 200);
});

test('CORS: a preflight from an allowed origin allows every method', async (t) => {
  const res = await app.request('/api/test/orders', {
    method: 'OPTIONS',
    headers: {
      Origin: 'https://app.example.com',
      'Access-Control-Request-Method': 'DELETE',
      'Access-Control-Request-Headers': 'content-type,idempotency-key',
    },
  });
  t.is(res.status, 204);
  t.is(res.headers.get('access-control-allow-origin'), 'https://app.example.com');
  t.regex(res.headers.get('access-control-allow-methods') ?? '', /DELETE/);
  t.regex(res.headers.get('access-control-allow-headers') ?? '', /idempotency-key/);
});

test('an unforeseen error is a generic 500 quoting the request id, its message never shown', async (t) => {
  const res = await app.request('/api/test/explode', postJson({}));
  t.is(res.status, 500);
  const body = await readJson(res);
  t.deepEqual(Object.keys(body).sort(), ['code', 'error', 'error_code', 'message', 'request_id']);
  t.is(body.code, 'INTERNAL_ERROR');
  t.is(body.request_id, res.headers.get('x-request-id'));
  t.regex(body.message, new RegExp(body.request_id));
  t.false(JSON.stringify(body).includes('hunter2'));
});
