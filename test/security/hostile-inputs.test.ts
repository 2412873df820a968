import { createHmac } from 'node:crypto';
import test from 'ava';
import { postJson, readJson } from '../helpers/http.js';
import { type SeededTenant, seedPlatformTenant } from '../helpers/identities.js';
import { invoiceBody } from '../helpers/invoices.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Inputs the fuzzer (fuzz-bodies.test.ts) once turned into 500s, each now a 422 in the
 * specification's shape before anything is written.
 */
const SECRET = 'hostile-inputs-secret';
let app: TestApp;
let tenant: SeededTenant;

test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0', SUPERPDP_WEBHOOK_SECRET: SECRET } });
  tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
});
test.after.always(() => app?.close());

const key = () => ({ 'X-Tenant-Key': tenant.keys.sk_test });
const invoiceCount = async () => Number((await app.ownerDb('invoices').count({ n: '*' }))[0]!.n);

test('a body nested 10,000 levels deep is refused with a 422 naming its field', async (t) => {
  for (const [open, close] of [
    ['[', ']'],
    ['{"a":', '}'],
  ] as const) {
    const deep = `${open.repeat(10_000)}${open === '[' ? '' : '1'}${close.repeat(10_000)}`;
    const res = await app.request('/api/v1/tenant/fiscal/closings/daily', postJson(`{"environment":${deep}}`, key()));
    const body = await readJson(res);
    t.is(res.status, 422, JSON.stringify(body).slice(0, 300));
    t.deepEqual(body.errors, { environment: ['must not be nested more than 64 levels deep'] });
  }
});

test('fields named like Object.prototype members are reported as fields, not looked up on the prototype', async (t) => {
  // (`__proto__` does not get this far: the JSON parser refuses it, 400.)
  for (const name of ['constructor', 'toString', 'hasOwnProperty']) {
    const res = await app.request(
      '/api/v1/tenant/fiscal/kill-switch/activate',
      postJson(`{"reason":"Audit","${name}":"x"}`, key()),
    );
    const body = await readJson(res);
    t.is(res.status, 422, JSON.stringify(body));
    t.true(Object.hasOwn(body.errors, name), `${name} in ${JSON.stringify(body.errors)}`);
    t.deepEqual(body.errors[name], ['is not an allowed property']);
  }
});

test('a lone surrogate is refused with a 422, and no invoice is written', async (t) => {
  const before = await invoiceCount();
  const invoice = invoiceBody();
  invoice.buyer_address = { ...invoice.buyer_address, line1: '10 avenue\ud800' };
  const res = await app.request('/api/v1/invoices', postJson(invoice, key()));
  const body = await readJson(res);
  t.is(res.status, 422, JSON.stringify(body));
  t.deepEqual(body.errors, { 'buyer_address.line1': ['must be well-formed Unicode (no lone surrogate)'] });
  t.is(await invoiceCount(), before);
});

test('a signed provider callback with a NUL in its payload is a 422, not a 500', async (t) => {
  const raw = JSON.stringify({ id: 'evt_nul', type: 'invoice.status_changed', data: { invoice_id: 'pdp\u0000' } });
  const signature = `sha256=${createHmac('sha256', SECRET).update(raw).digest('hex')}`;
  const res = await app.request('/webhooks/superpdp', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-SuperPDP-Signature': signature },
    body: raw,
  });
  const body = await readJson(res);
  t.is(res.status, 422, JSON.stringify(body));
  t.deepEqual(body.errors, { 'data.invoice_id': ['must not contain a NUL character'] });
  t.is(Number((await app.ownerDb('inbound_events').count({ n: '*' }))[0]!.n), 0);
});

test('with an Idempotency-Key, a 10,000-level body is still a 422 (the claim never walks it)', async (t) => {
  const res = await app.request(
    '/api/v1/tenant/fiscal/closings/daily',
    postJson(`{"environment":${'['.repeat(10_000)}${']'.repeat(10_000)}}`, { ...key(), 'Idempotency-Key': 'deep-1' }),
  );
  const body = await readJson(res);
  t.is(res.status, 422, JSON.stringify(body).slice(0, 300));
  t.deepEqual(body.errors, { environment: ['must not be nested more than 64 levels deep'] });
});

test('a POST that only reads (bulk-status) takes an Idempotency-Key: served, then replayed', async (t) => {
  const request = () =>
    app.request(
      '/api/v1/tenant/invoices/bulk-status',
      postJson({ invoice_ids: ['00000000-0000-4000-a000-000000000000'] }, { ...key(), 'Idempotency-Key': 'read-1' }),
    );
  const first = await request();
  const firstBody = await first.text();
  t.is(first.status, 200, firstBody);
  const again = await request();
  t.is(again.status, 200);
  t.is(again.headers.get('idempotent-replayed'), 'true');
  t.is(await again.text(), firstBody);
});
