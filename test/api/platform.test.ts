import test from 'ava';
import { createApp } from '../../api/app.js';
import { SECURITY_HEADERS } from '../../api/middleware/request-context.js';
import { createDatabase } from '../../domain/shared/database.js';
import { postJson, readJson } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(() => app?.close());

const EXPECTED_HEADERS = {
  'content-security-policy': "default-src 'self'; script-src 'self'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'x-xss-protection': '0',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
};

test('both health routes answer {status, timestamp} with the database up', async (t) => {
  for (const path of ['/api/health', '/api/v1/health']) {
    const res = await app.request(path);
    t.is(res.status, 200);
    const body = await readJson(res);
    t.deepEqual(Object.keys(body).sort(), ['status', 'timestamp']);
    t.is(body.status, 'ok');
    t.true(Math.abs(Date.parse(body.timestamp) - Date.now()) < 60_000);
  }
});

test('health answers 503 in the error shape when the database is unreachable', async (t) => {
  const deadDb = createDatabase('postgres://postgres@127.0.0.1:1/none', { poolMax: 1 });
  const server = createApp({ ...app.deps, db: deadDb, counters: deadDb }).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const { port } = server.address() as { port: number };
    const res = await fetch(`http://127.0.0.1:${port}/api/health`);
    t.is(res.status, 503);
    const body = await readJson(res);
    t.is(body.status, 'unavailable');
    t.is(body.code, 'SERVICE_UNAVAILABLE');
    t.is(body.error_code, 'SERVICE_UNAVAILABLE');
    t.is(body.error, 'service_unavailable');
    t.truthy(body.timestamp);
    t.is(res.headers.get('retry-after'), '5');
  } finally {
    server.close();
    await deadDb.destroy();
  }
});

test('pricing lists the production unit prices', async (t) => {
  const res = await app.request('/api/v1/pricing');
  t.is(res.status, 200);
  t.deepEqual(await readJson(res), {
    data: { invoice_price: 0.04, signature_price: 1.2, credit_note_price: 0.04, currency: 'EUR' },
  });
});

test('every response carries the specification security headers, errors included', async (t) => {
  t.deepEqual(
    Object.fromEntries(Object.entries(SECURITY_HEADERS).map(([k, v]) => [k.toLowerCase(), v])),
    EXPECTED_HEADERS,
  );
  for (const path of ['/api/health', '/api/v1/pricing', '/api/does-not-exist']) {
    const res = await app.request(path);
    for (const [name, value] of Object.entries(EXPECTED_HEADERS)) t.is(res.headers.get(name), value, `${path} ${name}`);
  }
});

test('an unknown route is a 404 in the error shape', async (t) => {
  const res = await app.request('/api/v1/nothing-here');
  t.is(res.status, 404);
  t.regex(res.headers.get('content-type') ?? '', /application\/json/);
  const body = await readJson(res);
  t.like(body, { error: 'not_found', code: 'NOT_FOUND', error_code: 'NOT_FOUND' });
  t.regex(body.message, /GET \/api\/v1\/nothing-here/);
});

test('a wrong method on a known route is a 405 in the error shape', async (t) => {
  const res = await app.request('/api/v1/pricing', { method: 'DELETE' });
  t.is(res.status, 405);
  t.like(await readJson(res), { code: 'METHOD_NOT_ALLOWED', error_code: 'METHOD_NOT_ALLOWED' });
});

test('every response has a request id; a well-formed incoming one is kept', async (t) => {
  const generated = await app.request('/api/health');
  t.regex(generated.headers.get('x-request-id') ?? '', /^req_[0-9a-f]{32}$/);
  const kept = await app.request('/api/health', { headers: { 'X-Request-Id': 'client-trace-12345678' } });
  t.is(kept.headers.get('x-request-id'), 'client-trace-12345678');
  const refused = await app.request('/api/health', { headers: { 'X-Request-Id': 'bad id with spaces' } });
  t.regex(refused.headers.get('x-request-id') ?? '', /^req_/);
  const notFound = await app.request('/api/nope');
  t.regex(notFound.headers.get('x-request-id') ?? '', /^req_/);
});

test('a malformed JSON body is refused before routing: 400 in the error shape', async (t) => {
  const res = await app.request('/api/v1/pricing', postJson('{"not json'));
  t.is(res.status, 400);
  t.like(await readJson(res), { code: 'INVALID_JSON', error_code: 'INVALID_JSON', error: 'invalid_json' });
});

test('a body over JSON_BODY_LIMIT is a 413 in the error shape, before it is read', async (t) => {
  const res = await app.request('/api/v1/anything', postJson({ blob: 'x'.repeat(1024 * 1024 + 10) }));
  t.is(res.status, 413);
  t.like(await readJson(res), { code: 'PAYLOAD_TOO_LARGE', error_code: 'PAYLOAD_TOO_LARGE' });
});
