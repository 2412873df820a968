import { createHmac } from 'node:crypto';
import test from 'ava';
import { readJson } from '../helpers/http.js';
import { seedPlatformTenant } from '../helpers/identities.js';
import { createInvoice } from '../helpers/invoices.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/** The `/webhooks/superpdp*` sync triggers (provider-apis.md §1.10): signed, deduplicated by event id. */
const SECRET = 'spdp_trigger_secret';
let app: TestApp;
test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0', SUPERPDP_WEBHOOK_SECRET: SECRET } });
});
test.after.always(() => app?.close());

const signed = (raw: string, secret = SECRET) => {
  const t = Math.floor(Date.now() / 1000);
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${raw}`).digest('hex')}`;
};
const deliver = (path: string, raw: string, signature?: string) =>
  app.request(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(signature ? { 'X-SuperPDP-Signature': signature } : {}) },
    body: raw,
  });
const syncJobs = () =>
  app.ownerDb
    .raw("select count(*)::int as n from pgboss.job where name = 'sync-all-provider-events'")
    .then((r) => r.rows[0].n);

test.serial(
  'ten concurrent deliveries of one event: one processed, nine already_processed, one sync queued',
  async (t) => {
    const raw = JSON.stringify({
      id: 'spevt_concurrent',
      type: 'invoice_event.created',
      created_at: '2026-11-20T10:00:00Z',
      data: { invoice_id: 424242, invoice_event_id: 90211, status_code: 'fr:212', direction: 'out' },
    });
    const before = await syncJobs();
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        deliver(['/webhooks/superpdp/invoice', '/api/webhooks/superpdp/invoice'][i % 2], raw, signed(raw)),
      ),
    );
    t.deepEqual(
      responses.map((r) => r.status),
      Array(10).fill(200),
    );
    const statuses = await Promise.all(responses.map(async (r) => (await readJson(r)).status));
    t.is(statuses.filter((s) => s === 'processed').length, 1);
    t.is(statuses.filter((s) => s === 'already_processed').length, 9);
    t.is((await app.ownerDb('inbound_events').where({ provider: 'superpdp', event_id: 'spevt_concurrent' })).length, 1);
    t.is((await syncJobs()) - before, 1, 'an unknown invoice triggers one sync of every connection');
  },
);

test.serial('a bad signature is 401 and records nothing; every path verifies', async (t) => {
  const raw = JSON.stringify({ id: 'spevt_forged', type: 'document.available', data: {} });
  for (const path of ['/webhooks/superpdp', '/webhooks/superpdp/document', '/api/webhooks/superpdp']) {
    const res = await deliver(path, raw, signed(raw, 'wrong-secret'));
    t.is(res.status, 401);
    t.is((await readJson(res)).code, 'WEBHOOK_SIGNATURE_INVALID');
    t.is((await deliver(path, raw)).status, 401, 'no signature');
  }
  t.is((await app.ownerDb('inbound_events').where({ event_id: 'spevt_forged' })).length, 0);
  const ok = await deliver('/webhooks/superpdp', raw, signed(raw));
  t.like(await readJson(ok), { status: 'processed', provider: 'superpdp', event_id: 'spevt_forged' });
  const noId = JSON.stringify({ type: 'invoice.received' });
  t.is((await deliver('/webhooks/superpdp', noId, signed(noId))).status, 422);
});

test.serial('a trigger naming one of our invoices syncs the connection that carries it', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const invoice = await createInvoice(app.request, tenant.keys.sk_test);
  const [connection] = await app
    .ownerDb('provider_connections')
    .insert({
      tenant_id: tenant.tenantId,
      environment: 'production',
      provider: 'superpdp',
      client_id: 'c',
      client_secret_sealed: 'sealed',
    })
    .returning('id');
  await app
    .ownerDb('invoices')
    .where({ id: invoice.id })
    .update({ pdp_id: '8812', provider_connection_id: connection.id });
  const raw = JSON.stringify({ id: 'spevt_known', type: 'invoice_event.created', data: { invoice_id: 8812 } });
  const res = await deliver('/webhooks/superpdp', raw, signed(raw));
  t.like(await readJson(res), { status: 'processed' });
  const jobs = await app.ownerDb
    .raw("select data, singleton_key from pgboss.job where name = 'sync-provider-events'")
    .then((r) => r.rows);
  t.deepEqual(jobs, [
    { data: { tenantId: tenant.tenantId, connectionId: connection.id }, singleton_key: connection.id },
  ]);
});
