import { createHash } from 'node:crypto';
import test from 'ava';
import { inTenantContext } from '../../domain/shared/tenant-context.js';
import { expectInvalid, expectRefusal } from '../helpers/assertions.js';
import { closeDay, getFiscal, invoiceAt, smallInvoice } from '../helpers/fiscal-closings.js';
import { postJson, readJson } from '../helpers/http.js';
import { seedPlatformTenant } from '../helpers/identities.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { TestClock, withClock } from '../helpers/test-clock.js';

const clock = new TestClock('2025-03-10T09:00:00Z');
let app: TestApp;
test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' }, override: withClock(clock) });
});
test.after.always(() => app?.close());

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const ZEROS = '0'.repeat(64);

test.serial('a daily closing by hand: the day’s totals, sealed, chained, recorded on the chain, once', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const key = tenant.keys.sk_test;
  await invoiceAt(app, clock, key, '2025-03-10T09:00:00Z'); // 1250.00 + 225.00 VAT
  await invoiceAt(app, clock, key, '2025-03-10T15:30:00Z');
  await invoiceAt(app, clock, key, '2025-03-10T23:59:59Z', smallInvoice(100));
  await invoiceAt(app, clock, key, '2025-03-11T00:00:01Z', smallInvoice(7)); // the next day

  clock.set('2025-03-11T08:00:00Z');
  const { status, body } = await closeDay(app, key);
  t.is(status, 200, JSON.stringify(body));
  t.is(body.message, 'Daily closing recorded.');
  const closing = body.data;
  t.like(closing, {
    type: 'daily',
    date: '2025-03-10',
    period_start: '2025-03-10',
    period_end: '2025-03-10',
    sub_tenant_id: null,
    environment: 'sandbox',
    fiscal_year: 2025,
    first_sequence_number: 1,
    last_sequence_number: 3,
    entries_count: 3,
    previous_closing_hash: ZEROS,
    hash_version: 1,
  });
  const day = {
    currency: 'EUR',
    invoices_count: 3,
    invoices_ht: '2600.00',
    invoices_tax: '470.00',
    invoices_ttc: '3070.00',
    credit_notes_count: 0,
    credit_notes_ht: '0.00',
    net_ht: '2600.00',
    net_tax: '470.00',
    net_ttc: '3070.00',
    payments_count: 0,
    other_currencies: {},
  };
  t.like(closing.totals, day);
  t.like(closing.fiscal_year_totals, day);
  t.like(closing.perpetual_totals, day);
  t.is(closing.closing_hash, sha256(closing.hashed_data), 'closing_hash is the SHA-256 of the bytes shown');
  const hashed = JSON.parse(closing.hashed_data);
  t.like(hashed, { id: closing.id, last_sequence_number: 3, last_chain_hash: closing.last_chain_hash, totals: day });
  const third = await app.ownerDb('fiscal_entries').where({ tenant_id: tenant.tenantId, sequence_number: 3 }).first();
  t.is(closing.last_chain_hash, third.chain_hash, 'it seals entry 3 as it stands');
  t.like(closing.anchor, { status: 'pending', verified: false, anchored_at: null });

  const entries = await getFiscal(app, key, 'entries?entry_type=closing');
  t.is(entries.body.data.length, 1);
  t.like(entries.body.data[0], {
    sequence_number: 5,
    entity_type: 'closing',
    entity_id: closing.id,
    fiscal_date: '2025-03-10',
    data: { closing_hash: closing.closing_hash, last_sequence_number: 3, closing_type: 'daily' },
  });
  t.is(entries.body.data[0].id, closing.ledger_entry_id);

  const again = await closeDay(app, key, { date: '2025-03-10' });
  t.is(again.status, 200);
  t.is(again.body.data.id, closing.id, 'a repeat answers the same closing');
  t.is(Number((await app.ownerDb('fiscal_closings').where({ tenant_id: tenant.tenantId }).count({ n: '*' }))[0].n), 1);
  t.like((await getFiscal(app, key, 'integrity')).body, { valid: true, closings_checked: 1 });
});

test.serial('a day not over, a day before the chain, a foreign chain or environment are refused', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const key = tenant.keys.sk_test;
  await invoiceAt(app, clock, key, '2025-04-02T10:00:00Z');
  clock.set('2025-04-03T10:00:00Z');
  await expectInvalid(t, (await rawClose(key, { date: '2025-04-03' })).res, 'date');
  await expectInvalid(t, (await rawClose(key, { date: '2025-05-01' })).res, 'date');
  await expectInvalid(t, (await rawClose(key, { date: '03/04/2025' })).res, 'date');
  await expectInvalid(t, (await rawClose(key, { environment: 'production' })).res, 'environment');
  await expectRefusal(t, (await rawClose(key, { date: '2025-04-01' })).res, 409, 'INVALID_STATE');
  await expectRefusal(t, (await rawClose(tenant.keys.sk_live, {})).res, 409, 'INVALID_STATE');
  const other = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const sub = await readJson(
    await app.request(
      '/api/v1/tenant/sub-tenants',
      postJson({ external_id: 'theirs', name: 'Theirs' }, { 'X-Tenant-Key': other.keys.sk_test }),
    ),
  );
  await expectRefusal(t, (await rawClose(key, { sub_tenant_id: sub.data.id })).res, 404, 'NOT_FOUND');
  t.is(Number((await app.ownerDb('fiscal_closings').where({ tenant_id: tenant.tenantId }).count({ n: '*' }))[0].n), 0);
});

const rawClose = async (key: string, body: Record<string, unknown>) => ({
  res: await app.request('/api/v1/tenant/fiscal/closings/daily', postJson(body, { 'X-Tenant-Key': key })),
});

test.serial(
  'missed days are caught up in order; the fiscal year resets on 1 January, the perpetual total never',
  async (t) => {
    const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
    const key = tenant.keys.sk_test;
    await invoiceAt(app, clock, key, '2025-12-30T12:00:00Z'); // 1250.00
    await invoiceAt(app, clock, key, '2026-01-01T12:00:00Z', smallInvoice(100));
    clock.set('2026-01-02T09:00:00Z');
    const { status, body } = await closeDay(app, key, { date: '2026-01-01' });
    t.is(status, 200, JSON.stringify(body));
    const list = await getFiscal(app, key, 'closings?type=daily');
    t.is(list.status, 200);
    t.like(list.body, { success: true, meta: { total: 3, per_page: 20, current_page: 1, last_page: 1 } });
    const [jan1, dec31, dec30] = list.body.data;
    t.deepEqual(
      [dec30.date, dec31.date, jan1.date],
      ['2025-12-30', '2025-12-31', '2026-01-01'],
      'newest first; the empty day between is closed too',
    );
    t.like(dec30, {
      entries_count: 1,
      first_sequence_number: 1,
      last_sequence_number: 1,
      previous_closing_hash: ZEROS,
    });
    t.like(dec31, {
      entries_count: 0,
      first_sequence_number: null,
      last_sequence_number: 1,
      last_chain_hash: dec30.last_chain_hash,
      previous_closing_hash: dec30.closing_hash,
      totals: { invoices_count: 0, net_ht: '0.00' },
      fiscal_year_totals: { net_ht: '1250.00' },
      perpetual_totals: { net_ht: '1250.00' },
    });
    t.like(jan1, {
      fiscal_year: 2026,
      entries_count: 1,
      first_sequence_number: 2,
      last_sequence_number: 2,
      previous_closing_hash: dec31.closing_hash,
      totals: { invoices_count: 1, net_ht: '100.00', net_ttc: '120.00' },
      fiscal_year_totals: { invoices_count: 1, net_ht: '100.00' },
      perpetual_totals: { invoices_count: 2, invoices_ht: '1350.00', net_ht: '1350.00', net_tax: '245.00' },
    });
    t.is(body.data.id, jan1.id);

    // The three closing entries were appended on 2 January: that day's closing covers them, with no amounts.
    clock.set('2026-01-03T09:00:00Z');
    const jan2 = (await closeDay(app, key)).body.data;
    t.like(jan2, {
      date: '2026-01-02',
      first_sequence_number: 3,
      last_sequence_number: 5,
      entries_count: 3,
      totals: { invoices_count: 0, net_ht: '0.00' },
      perpetual_totals: { net_ht: '1350.00' },
    });
    const filtered = await getFiscal(app, key, 'closings?date_from=2025-12-31&date_to=2026-01-01&per_page=1');
    t.like(filtered.body.meta, { total: 2, per_page: 1, last_page: 2 });
    t.is(filtered.body.data[0].date, '2026-01-01');
    t.like((await getFiscal(app, key, 'integrity')).body, { valid: true, closings_checked: 4 });
  },
);

test.serial('two concurrent closings of the same day make one closing', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const key = tenant.keys.sk_test;
  await invoiceAt(app, clock, key, '2025-06-01T10:00:00Z');
  await invoiceAt(app, clock, key, '2025-06-03T10:00:00Z');
  clock.set('2025-06-04T10:00:00Z');
  const answers = await Promise.all(Array.from({ length: 4 }, () => closeDay(app, key, { date: '2025-06-03' })));
  t.deepEqual(
    answers.map((a) => a.status),
    [200, 200, 200, 200],
  );
  t.is(new Set(answers.map((a) => a.body.data.id)).size, 1);
  const rows = await app.ownerDb('fiscal_closings').where({ tenant_id: tenant.tenantId }).orderBy('period_start');
  t.deepEqual(
    rows.map((r) => r.period_start),
    ['2025-06-01', '2025-06-02', '2025-06-03'],
  );
  const closingEntries = await app
    .ownerDb('fiscal_entries')
    .where({ tenant_id: tenant.tenantId, entry_type: 'closing' })
    .count({ n: '*' });
  t.is(Number(closingEntries[0].n), 3, 'one closing entry each');
});

test.serial('a sub-tenant’s chain is closed apart, and lists show what the key may see', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const key = tenant.keys.sk_test;
  const headers = { 'X-Tenant-Key': key };
  const sub = (
    await readJson(
      await app.request('/api/v1/tenant/sub-tenants', postJson({ external_id: 'shop', name: 'Shop' }, headers)),
    )
  ).data;
  clock.set('2025-07-01T10:00:00Z');
  await invoiceAt(app, clock, key, '2025-07-01T10:00:00Z', smallInvoice(10));
  await invoiceAt(
    app,
    clock,
    key,
    '2025-07-01T11:00:00Z',
    smallInvoice(20),
    `/api/v1/tenant/sub-tenants/${sub.id}/invoices`,
  );
  clock.set('2025-07-02T10:00:00Z');
  const own = (await closeDay(app, key)).body.data;
  const theirs = (await closeDay(app, key, { sub_tenant_id: sub.id })).body.data;
  t.like(own, { sub_tenant_id: null, totals: { net_ht: '10.00' } });
  t.like(theirs, { sub_tenant_id: sub.id, totals: { net_ht: '20.00' }, first_sequence_number: 1 });
  t.is((await getFiscal(app, key, 'closings')).body.meta.total, 2);
  const onlySub = await getFiscal(app, key, `closings?sub_tenant_id=${sub.id}`);
  t.deepEqual(
    onlySub.body.data.map((c: { id: string }) => c.id),
    [theirs.id],
  );
  await expectInvalid(
    t,
    await app.request('/api/v1/tenant/fiscal/closings?environment=production', { headers }),
    'environment',
  );
  const other = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  t.is((await getFiscal(app, other.keys.sk_test, 'closings')).body.meta.total, 0, 'another tenant sees none');
  t.is((await getFiscal(app, tenant.keys.sk_live, 'closings')).body.meta.total, 0, 'nor does production');
});

test.serial('closing rows refuse UPDATE, DELETE and TRUNCATE for the application role', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  await invoiceAt(app, clock, tenant.keys.sk_test, '2025-08-01T10:00:00Z');
  clock.set('2025-08-02T10:00:00Z');
  const closing = (await closeDay(app, tenant.keys.sk_test)).body.data;
  const asApp = <T>(run: (tx: import('knex').Knex.Transaction) => Promise<T>) =>
    inTenantContext(app.deps.db, { tenantId: tenant.tenantId, environment: 'sandbox', kind: 'tenant' }, run);
  t.is((await asApp((tx) => tx('fiscal_closings').where({ id: closing.id }))).length, 1, 'the role sees it');
  // the application role has no UPDATE, DELETE or TRUNCATE privilege; the owner meets the triggers
  await t.throwsAsync(
    asApp((tx) => tx('fiscal_closings').where({ id: closing.id }).update({ entries_count: 0 })),
    { message: /permission denied for table fiscal_closings/ },
  );
  await t.throwsAsync(
    asApp((tx) => tx('fiscal_closings').where({ id: closing.id }).del()),
    { message: /permission denied for table fiscal_closings/ },
  );
  await t.throwsAsync(
    asApp((tx) => tx.raw('truncate fiscal_closings cascade')),
    { message: /permission denied/ },
  );
  await t.throwsAsync(app.ownerDb('fiscal_closings').where({ id: closing.id }).update({ entries_count: 0 }), {
    message: /append-only: UPDATE is refused/,
  });
  await t.throwsAsync(app.ownerDb('fiscal_closings').where({ id: closing.id }).del(), {
    message: /append-only: DELETE is refused/,
  });
  await t.throwsAsync(app.ownerDb.raw('truncate fiscal_closings cascade'), {
    message: /append-only|refused|cannot truncate/,
  });
  const row = await app.ownerDb('fiscal_closings').where({ id: closing.id }).first();
  t.is(Number(row.entries_count), 1, 'unchanged');
});
