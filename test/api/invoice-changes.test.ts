import test from 'ava';
import { renderError } from '../../api/http/render-error.js';
import { expectInvalid, expectRefusal } from '../helpers/assertions.js';
import { readJson } from '../helpers/http.js';
import { type SeededTenant, seedPlatformTenant, seedUser, seedUserKey } from '../helpers/identities.js';
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

const headers = (key = tenant.keys.sk_test) => ({ 'X-API-Key': key, 'Content-Type': 'application/json' });
const remove = (id: string, key?: string) =>
  app.request(`/api/v1/invoices/${id}`, { method: 'DELETE', headers: headers(key) });
const patch = (id: string, body: unknown, key?: string) =>
  app.request(`/api/v1/invoices/${id}`, { method: 'PATCH', headers: headers(key), body: JSON.stringify(body) });
const read = async (id: string) =>
  (await readJson(await app.request(`/api/v1/invoices/${id}`, { headers: headers() }))).data;

test('deleting a draft: 200 with the deleted invoice, still readable, its ledger entry kept', async (t) => {
  const invoice = await createInvoice(app.request, tenant.keys.sk_test);
  const entryBefore = await app.ownerDb('fiscal_entries').where({ entity_id: invoice.id }).first();
  t.truthy(entryBefore, 'creation wrote a ledger entry');

  const res = await remove(invoice.id);
  const body = await readJson(res);
  t.is(res.status, 200, JSON.stringify(body));
  t.is(body.message, 'Invoice deleted.');
  t.like(body.data, { id: invoice.id, status: 'deleted', invoice_number: invoice.invoice_number });
  t.like(await read(invoice.id), { status: 'deleted', total_ttc: 1475, lines: invoice.lines });

  const row = await app.ownerDb('invoices').where({ id: invoice.id }).first();
  t.truthy(row.deleted_at);
  t.is(row.fiscal_entry_id, entryBefore.id);
  const entryAfter = await app.ownerDb('fiscal_entries').where({ entity_id: invoice.id }).first();
  t.deepEqual(entryAfter, entryBefore, 'the ledger entry is untouched');
  t.is(
    await app
      .ownerDb('invoice_lines')
      .where({ invoice_id: invoice.id })
      .count('* as n')
      .first()
      .then((r) => Number(r!.n)),
    2,
  );

  // Deleting again, or deleting anything but a draft, is a conflict with the state.
  const again = await expectRefusal(t, await remove(invoice.id), 409, 'INVALID_STATE');
  t.is(again.status, 'deleted');
  const submitted = await createInvoice(app.request, tenant.keys.sk_test);
  await app.ownerDb('invoices').where({ id: submitted.id }).update({ status: 'submitted' });
  const refused = await expectRefusal(t, await remove(submitted.id), 409, 'INVALID_STATE');
  t.regex(refused.message, /only a draft can be deleted/);
  t.is((await read(submitted.id)).status, 'submitted');
});

test('two deletions at once: one succeeds, the other sees the deleted invoice (409), one audit entry', async (t) => {
  const invoice = await createInvoice(app.request, tenant.keys.sk_test);
  const statuses = (await Promise.all([remove(invoice.id), remove(invoice.id), remove(invoice.id)])).map(
    (r) => r.status,
  );
  t.deepEqual(statuses.sort(), [200, 409, 409]);
  const entries = await app.ownerDb('audit_entries').where({ entity_id: invoice.id, action: 'invoice.deleted' });
  t.is(entries.length, 1);
});

test('a foreign or unknown invoice cannot be deleted or changed: 404', async (t) => {
  const invoice = await createInvoice(app.request, tenant.keys.sk_test);
  await expectRefusal(t, await remove(invoice.id, stranger.keys.sk_test), 404, 'NOT_FOUND');
  await expectRefusal(t, await remove(invoice.id, tenant.keys.sk_live), 404, 'NOT_FOUND');
  await expectRefusal(t, await patch(invoice.id, { metadata: {} }, stranger.keys.sk_test), 404, 'NOT_FOUND');
  await expectRefusal(t, await patch(invoice.id, { total_ttc: 1 }, stranger.keys.sk_test), 404, 'NOT_FOUND');
  t.is((await read(invoice.id)).status, 'draft');
});

test('PATCH changes metadata (replaced whole) and archive_enabled, with an invoice.updated audit entry', async (t) => {
  const invoice = await createInvoice(app.request, tenant.keys.sk_test, { metadata: { crm: 'C-1', tier: 2 } });
  const res = await patch(invoice.id, { metadata: { order: 'A-9', paid: false }, archive_enabled: true });
  const body = await readJson(res);
  t.is(res.status, 200, JSON.stringify(body));
  t.is(body.message, 'Invoice updated.');
  t.like(body.data, { metadata: { order: 'A-9', paid: false }, archive_enabled: true, total_ttc: 1475 });
  t.deepEqual(body.data.metadata, { order: 'A-9', paid: false });
  t.deepEqual(await read(invoice.id), body.data);

  // Only what is sent changes.
  const second = await readJson(await patch(invoice.id, { archive_enabled: false }));
  t.like(second.data, { metadata: { order: 'A-9', paid: false }, archive_enabled: false });
  // An empty PATCH changes nothing and records nothing.
  const unchanged = await readJson(await patch(invoice.id, {}));
  t.deepEqual(unchanged.data, second.data);
  const actions = await app
    .ownerDb('audit_entries')
    .where({ entity_id: invoice.id })
    .orderBy('sequence_number')
    .pluck('action');
  t.deepEqual(actions, ['invoice.created', 'invoice.updated', 'invoice.updated']);

  await expectInvalid(t, await patch(invoice.id, { metadata: 'x' }), 'metadata');
  await expectInvalid(t, await patch(invoice.id, { status: 'paid' }), 'status');
});

test('PATCH with a fiscal field: 409 INVOICE_IMMUTABLE naming the fields; nothing changes', async (t) => {
  const invoice = await createInvoice(app.request, tenant.keys.sk_test);
  const cases: [Record<string, unknown>, string[]][] = [
    [{ invoice_number: 'F-NEW' }, ['invoice_number']],
    [{ total_ht: 1, total_tax: 0, total_ttc: 1 }, ['total_ht', 'total_tax', 'total_ttc']],
    [{ lines: [] }, ['lines']],
    [{ issue_date: '2026-01-01', buyer_name: 'Other', currency: 'USD' }, ['issue_date', 'currency', 'buyer_name']],
    [{ metadata: { a: 1 }, seller_address: { line1: 'x', postal_code: '1', city: 'y' } }, ['seller_address']],
  ];
  for (const [body, fields] of cases) {
    const refused = await expectRefusal(t, await patch(invoice.id, body), 409, 'INVOICE_IMMUTABLE');
    t.deepEqual([...refused.locked_fields].sort(), [...fields].sort());
    for (const field of fields) t.true(refused.message.includes(field), refused.message);
  }
  t.deepEqual(await read(invoice.id), invoice, 'nothing changed, metadata included');
  const actions = await app.ownerDb('audit_entries').where({ entity_id: invoice.id }).pluck('action');
  t.deepEqual(actions, ['invoice.created']);
});

test('the database refuses fiscal changes whoever writes, and that refusal renders as 409 INVOICE_IMMUTABLE', async (t) => {
  const invoice = await createInvoice(app.request, tenant.keys.sk_test);
  const error = await t.throwsAsync(
    app.ownerDb('invoices').where({ id: invoice.id }).update({ total_ht: '1.00', total_ttc: '226.00' }),
  );
  t.like(error as object, { code: '23001', constraint: 'invoices_fiscal_fields_locked' });
  const rendered = renderError(error, 'req-1');
  t.is(rendered.status, 409);
  t.like(rendered.body, { code: 'INVOICE_IMMUTABLE', error_code: 'INVOICE_IMMUTABLE', error: 'invoice_immutable' });
  t.false(rendered.unexpected);
  const lineError = await t.throwsAsync(
    app.ownerDb('invoice_lines').where({ invoice_id: invoice.id }).update({ description: 'x' }),
  );
  t.is(renderError(lineError, 'req-2').status, 409);
  // Lifecycle columns still move.
  await app
    .ownerDb('invoices')
    .where({ id: invoice.id })
    .update({ status: 'submitted', metadata: { a: 1 } });
  t.like(await read(invoice.id), { status: 'submitted', metadata: { a: 1 } });
});

test('a dashboard token may delete and change its own invoices; a user never reaches a tenant’s', async (t) => {
  const user = await seedUser(app.ownerDb);
  const own = await createInvoice(app.request, await seedUserKey(app.ownerDb, user));
  const invoice = await createInvoice(app.request, tenant.keys.sk_test);
  const bearer = { Authorization: `Bearer ${user.token}`, 'Content-Type': 'application/json' };
  const call = (id: string, method: string, body?: unknown) =>
    app.request(`/api/v1/invoices/${id}`, {
      method,
      headers: bearer,
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  const changed = await readJson(await call(own.id, 'PATCH', { metadata: { by: 'dashboard' } }));
  t.deepEqual(changed.data.metadata, { by: 'dashboard' });
  t.is((await call(own.id, 'DELETE')).status, 200);
  await expectRefusal(t, await call(invoice.id, 'DELETE'), 404, 'NOT_FOUND');
  await expectRefusal(t, await call(invoice.id, 'PATCH', { metadata: {} }), 404, 'NOT_FOUND');
  t.is((await read(invoice.id)).status, 'draft');
});
