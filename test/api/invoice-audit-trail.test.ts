import test from 'ava';
import { expectRefusal } from '../helpers/assertions.js';
import { readJson } from '../helpers/http.js';
import { type SeededTenant, seedPlatformTenant } from '../helpers/identities.js';
import { createInvoice } from '../helpers/invoices.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let tenant: SeededTenant;
let stranger: SeededTenant;

test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
  tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  stranger = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
});
test.after.always(() => app?.close());

const headers = (key = tenant.keys.sk_test) => ({ 'X-API-Key': key });
const trail = (id: string, key = tenant.keys.sk_test, prefix = '/api/v1/invoices') =>
  app.request(`${prefix}/${id}/audit-trail`, { headers: headers(key) });

async function readTrail(id: string, prefix?: string) {
  const res = await trail(id, tenant.keys.sk_test, prefix);
  const body = await readJson(res);
  if (res.status !== 200) throw new Error(`audit trail: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

test('the trail lists created, updated and deleted, oldest first, with a valid chain', async (t) => {
  const invoice = await createInvoice(app.request, tenant.keys.sk_test);
  const patch = await app.request(`/api/v1/invoices/${invoice.id}`, {
    method: 'PATCH',
    headers: { ...headers(), 'Content-Type': 'application/json' },
    body: JSON.stringify({ metadata: { order: 'A-1' } }),
  });
  t.is(patch.status, 200);
  const del = await app.request(`/api/v1/invoices/${invoice.id}`, { method: 'DELETE', headers: headers() });
  t.is(del.status, 200);

  const body = await readTrail(invoice.id);
  t.deepEqual(Object.keys(body).sort(), ['data', 'integrity_valid']);
  t.true(body.integrity_valid);
  t.deepEqual(
    body.data.map((e: { action: string }) => e.action),
    ['invoice.created', 'invoice.updated', 'invoice.deleted'],
  );
  for (const entry of body.data) {
    t.deepEqual(Object.keys(entry).sort(), ['action', 'actor_ip', 'created_at', 'details']);
    t.regex(entry.actor_ip, /127\.0\.0\.1/);
    t.false(Number.isNaN(Date.parse(entry.created_at)));
  }
  t.like(body.data[0].details, { invoice_number: invoice.invoice_number, currency: 'EUR' });
  t.deepEqual(body.data[1].details, { changed: ['metadata'] });
  t.like(body.data[2].details, { invoice_number: invoice.invoice_number, previous_status: 'draft' });
  // The sandbox route set serves the same trail.
  t.deepEqual(await readTrail(invoice.id, '/api/v1/sandbox/invoices'), body);
});

test.serial('a changed entry is detected: integrity_valid turns false', async (t) => {
  const invoice = await createInvoice(app.request, tenant.keys.sk_test);
  await app.request(`/api/v1/invoices/${invoice.id}`, { method: 'DELETE', headers: headers() });
  t.true((await readTrail(invoice.id)).integrity_valid);

  const db = app.ownerDb;
  // The table refuses UPDATE for every role; only its owner can lift the trigger, as an attacker with it could.
  await db.raw('alter table audit_entries disable trigger audit_entries_no_update_delete');
  try {
    await db('audit_entries')
      .where({ entity_id: invoice.id, sequence_number: 1 })
      .update({ details: JSON.stringify({ invoice_number: 'FORGED', total_ttc: '1.00' }) });
  } finally {
    await db.raw('alter table audit_entries enable trigger audit_entries_no_update_delete');
  }
  const tampered = await readTrail(invoice.id);
  t.false(tampered.integrity_valid);
  t.is(tampered.data[0].details.invoice_number, 'FORGED');

  // A removed entry in the middle breaks the chain too (a removed last entry needs an outside anchor to be seen).
  const other = await createInvoice(app.request, tenant.keys.sk_test);
  await app.request(`/api/v1/invoices/${other.id}`, {
    method: 'PATCH',
    headers: { ...headers(), 'Content-Type': 'application/json' },
    body: JSON.stringify({ archive_enabled: true }),
  });
  await app.request(`/api/v1/invoices/${other.id}`, { method: 'DELETE', headers: headers() });
  t.true((await readTrail(other.id)).integrity_valid);
  await db.raw('alter table audit_entries disable trigger audit_entries_no_update_delete');
  try {
    await db('audit_entries').where({ entity_id: other.id, sequence_number: 2 }).delete();
  } finally {
    await db.raw('alter table audit_entries enable trigger audit_entries_no_update_delete');
  }
  const gapped = await readTrail(other.id);
  t.deepEqual(
    gapped.data.map((e: { action: string }) => e.action),
    ['invoice.created', 'invoice.deleted'],
  );
  t.false(gapped.integrity_valid);
});

test('the application cannot change the trail: UPDATE and DELETE are refused by the database', async (t) => {
  const invoice = await createInvoice(app.request, tenant.keys.sk_test);
  const error = await t.throwsAsync(
    app.ownerDb('audit_entries').where({ entity_id: invoice.id }).update({ action: 'invoice.forged' }),
  );
  t.regex(error!.message, /append-only: UPDATE is refused/);
  const removal = await t.throwsAsync(app.ownerDb('audit_entries').where({ entity_id: invoice.id }).delete());
  t.regex(removal!.message, /append-only: DELETE is refused/);
  t.is((await readTrail(invoice.id)).data.length, 1);
  t.true((await readTrail(invoice.id)).integrity_valid);
});

test("another tenant's invoice, or the other environment's, answers 404", async (t) => {
  const invoice = await createInvoice(app.request, tenant.keys.sk_test);
  await expectRefusal(t, await trail(invoice.id, stranger.keys.sk_test), 404, 'NOT_FOUND');
  await expectRefusal(t, await trail(invoice.id, tenant.keys.sk_live), 404, 'NOT_FOUND');
  await expectRefusal(t, await trail(invoice.id, stranger.keys.sk_test, '/api/v1/sandbox/invoices'), 404, 'NOT_FOUND');
});
