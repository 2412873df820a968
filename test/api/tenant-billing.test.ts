import test from 'ava';
import type { Knex } from 'knex';
import { creditBalance, issueBillingInvoice } from '../../domain/billing/operations/index.js';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import { billTenantMonth } from '../../workers/handlers/bill-tenant-month.js';
import { expectInvalid, expectRefusal } from '../helpers/assertions.js';
import { readJson } from '../helpers/http.js';
import { type SeededTenant, seedPlatformTenant } from '../helpers/identities.js';
import { createInvoice } from '../helpers/invoices.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { TestClock, withClock } from '../helpers/test-clock.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read bodies loosely
type Json = any;

const clock = new TestClock('2026-11-15T10:00:00Z');
let app: TestApp;
test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' }, override: withClock(clock) });
});
test.after.always(() => app?.close());

const get = (tenant: SeededTenant, path: string, key: 'sk_live' | 'sk_test' = 'sk_live') =>
  app.request(`/api/v1/tenant/billing${path}`, { headers: { 'X-Tenant-Key': tenant.keys[key] } });

type Kind = 'invoice_created' | 'signature_created' | 'credit_note_created';
const PRICE: Record<Kind, string> = { invoice_created: '0.04', signature_created: '1.20', credit_note_created: '0.04' };

/** `count` usage debits in one statement, a minute apart from `from`. */
async function seedUsage(db: Knex, tenantId: string, type: Kind, count: number, from: string) {
  await db.raw(
    `insert into balance_transactions (tenant_id, type, amount, balance_after, currency, reference_type, reference_id, created_at)
     select ?, ?, -(?::numeric), 500, 'EUR', ?, gen_random_uuid(), ?::timestamptz + (i * interval '1 minute')
     from generate_series(0, ? - 1) i`,
    [tenantId, type, PRICE[type], type.replace('_created', ''), from, count],
  );
}

/** A tenant with 1,200 invoices and 2 signatures in October 2026 and a 100 EUR balance. */
async function billedTenant() {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  await app.ownerDb('balances').where({ tenant_id: tenant.tenantId }).update({ amount: '100.00' });
  await seedUsage(app.ownerDb, tenant.tenantId, 'invoice_created', 1200, '2026-10-02T08:00:00Z');
  await seedUsage(app.ownerDb, tenant.tenantId, 'signature_created', 2, '2026-10-20T08:00:00Z');
  return tenant;
}

test.serial('usage: per month, newest first: counts, amounts, the tier reached, the invoice once issued', async (t) => {
  const tenant = await billedTenant();
  clock.set('2026-11-15T10:00:00Z');
  // One real production invoice this month, debited 0.04; a sandbox one is free and not counted.
  const invoice = await createInvoice(app.request, tenant.keys.sk_live);
  await createInvoice(app.request, tenant.keys.sk_test);

  const res = await get(tenant, '/usage?months=3');
  t.is(res.status, 200);
  const { data } = await readJson(res);
  t.is(data.currency, 'EUR');
  t.deepEqual(data.discount_tiers, [
    { above: 10000, rate: 30 },
    { above: 5000, rate: 20 },
    { above: 1000, rate: 10 },
  ]);
  t.deepEqual(
    data.months.map((m: { month: string; current: boolean }) => [m.month, m.current]),
    [
      ['2026-11', true],
      ['2026-10', false],
      ['2026-09', false],
    ],
  );
  const [november, october, september] = data.months;
  t.like(november, { invoices: { count: 1, unit_price: 0.04, amount: 0.04 }, discount_tier: null, total_ht: 0.04 });
  // 1200 × 0.04 = 48.00, −10 % = 4.80; 2 × 1.20 = 2.40; HT 45.60; VAT 9.12; TTC 54.72.
  t.deepEqual(october, {
    month: '2026-10',
    current: false,
    invoices: { count: 1200, unit_price: 0.04, amount: 48 },
    signatures: { count: 2, unit_price: 1.2, amount: 2.4 },
    credit_notes: { count: 0, unit_price: 0.04, amount: 0 },
    gross_amount: 50.4,
    discount_tier: { above: 1000, rate: 10 },
    discount_amount: 4.8,
    total_ht: 45.6,
    vat_rate: 20,
    total_vat: 9.12,
    total_ttc: 54.72,
    billing_invoice_id: null,
  });
  t.like(september, { invoices: { count: 0 }, gross_amount: 0, total_ttc: 0 });

  // Once October is billed, its month names the invoice, whose figures are the same.
  clock.set('2026-11-01T02:00:00Z');
  const { id } = (await billTenantMonth({ tenantId: tenant.tenantId, month: '2026-10' }, app.deps)) as { id: string };
  clock.set('2026-11-15T10:00:00Z');
  const one = (await readJson(await get(tenant, '/usage?month=2026-10'))).data;
  t.is(one.months.length, 1);
  t.like(one.months[0], { month: '2026-10', billing_invoice_id: id, total_ttc: 54.72 });
  const billed = (await readJson(await get(tenant, `/invoices/${id}`))).data;
  t.like(billed, {
    month: '2026-10',
    total_ht: 45.6,
    total_vat: 9.12,
    total_ttc: 54.72,
    discount_rate: 10,
    discount_amount: 4.8,
  });
  t.is(invoice.status, 'draft');
});

/** A `signature_refunded` credit of one of the tenant's signature debits (a failed request, docs/decisions/0092). */
async function refundOneSignature(db: Knex, tenantId: string, at: string): Promise<string> {
  const debit = await db('balance_transactions')
    .where({ tenant_id: tenantId, type: 'signature_created' })
    .orderBy('created_at')
    .first('reference_id');
  await db('balance_transactions').insert({
    tenant_id: tenantId,
    type: 'signature_refunded',
    amount: '1.20',
    balance_after: 500,
    currency: 'EUR',
    reference_type: 'signature',
    reference_id: debit.reference_id,
    created_at: at,
  });
  return debit.reference_id;
}

test.serial(
  "usage: a refunded signature is out of its month's usage and invoice; a month of refunded ones only is not billed",
  async (t) => {
    const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
    await app.ownerDb('balances').where({ tenant_id: tenant.tenantId }).update({ amount: '100.00' });
    await seedUsage(app.ownerDb, tenant.tenantId, 'signature_created', 3, '2026-10-10T08:00:00Z');
    await refundOneSignature(app.ownerDb, tenant.tenantId, '2026-10-10T09:00:00Z');
    clock.set('2026-11-15T10:00:00Z');
    const october = (await readJson(await get(tenant, '/usage?month=2026-10'))).data.months[0];
    // 2 × 1.20 = 2.40; VAT 0.48; TTC 2.88.
    t.like(october, { signatures: { count: 2, amount: 2.4 }, total_ht: 2.4, total_ttc: 2.88 });
    clock.set('2026-11-01T02:00:00Z');
    const billed = (await billTenantMonth({ tenantId: tenant.tenantId, month: '2026-10' }, app.deps)) as Json;
    clock.set('2026-11-15T10:00:00Z');
    const invoice = (await readJson(await get(tenant, `/invoices/${billed.id}`))).data;
    t.like(invoice, { signatures: { count: 2, amount: 2.4 }, total_ttc: 2.88, debited_amount: 2.4 });

    // One signature in October, refunded early in November (a failure after its retries): October has no usage.
    const refundedOnly = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
    await seedUsage(app.ownerDb, refundedOnly.tenantId, 'signature_created', 1, '2026-10-31T22:00:00Z');
    await refundOneSignature(app.ownerDb, refundedOnly.tenantId, '2026-11-01T00:30:00Z');
    const months = (await readJson(await get(refundedOnly, '/usage?months=2'))).data.months;
    t.like(months[1], { month: '2026-10', signatures: { count: 0, amount: 0 }, total_ttc: 0 });
    t.like(months[0], { month: '2026-11', signatures: { count: 0, amount: 0 } });
    t.like(await billTenantMonth({ tenantId: refundedOnly.tenantId, month: '2026-10' }, app.deps), {
      outcome: 'nothing_to_bill',
      id: null,
    });
  },
);

test.serial('transactions: every movement with its balance_after, newest first, filtered and paged', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  clock.set('2026-11-03T09:00:00Z');
  const credit = await execute(
    creditBalance,
    { tenant_id: tenant.tenantId, amount: 20, reason: 'Welcome credit' },
    systemCaller(),
    app.deps,
  );
  clock.set('2026-11-04T09:00:00Z');
  const first = await createInvoice(app.request, tenant.keys.sk_live);
  clock.set('2026-11-05T09:00:00Z');
  const second = await createInvoice(app.request, tenant.keys.sk_live);

  const all = await readJson(await get(tenant, '/transactions'));
  t.deepEqual(all.meta, { current_page: 1, last_page: 1, per_page: 25, total: 3 });
  t.deepEqual(
    all.data.map((m: { type: string; amount: number; balance_after: number; reference_id: string | null }) => [
      m.type,
      m.amount,
      m.balance_after,
      m.reference_id,
    ]),
    [
      ['invoice_created', -0.04, 19.92, second.id],
      ['invoice_created', -0.04, 19.96, first.id],
      ['balance_credit', 20, 20, null],
    ],
  );
  t.like(all.data[2], { id: credit.transaction_id, reason: 'Welcome credit', currency: 'EUR' });
  t.like(all.data[0], { reference_type: 'invoice', created_at: '2026-11-05T09:00:00.000Z' });

  const types = await readJson(await get(tenant, '/transactions?type=balance_credit'));
  t.deepEqual(
    types.data.map((m: { id: string }) => m.id),
    [credit.transaction_id],
  );
  const byReference = await readJson(
    await get(tenant, `/transactions?reference_id=${first.id}&reference_type=invoice`),
  );
  t.deepEqual(
    byReference.data.map((m: { reference_id: string }) => m.reference_id),
    [first.id],
  );
  // Europe/Paris days: 4 November 00:00–24:00 in Paris holds the first invoice only.
  const day = await readJson(await get(tenant, '/transactions?date_from=2026-11-04&date_to=2026-11-04'));
  t.deepEqual(
    day.data.map((m: { reference_id: string }) => m.reference_id),
    [first.id],
  );
  const since = await readJson(await get(tenant, '/transactions?date_from=2026-11-04'));
  t.is(since.meta.total, 2);
  const page = await readJson(await get(tenant, '/transactions?per_page=2&page=2'));
  t.deepEqual(page.meta, { current_page: 2, last_page: 2, per_page: 2, total: 3 });
  t.deepEqual(
    page.data.map((m: { id: string }) => m.id),
    [credit.transaction_id],
  );

  // Another tenant sees none of it.
  const other = await seedPlatformTenant(app.ownerDb);
  t.is((await readJson(await get(other, '/transactions'))).meta.total, 0);
  t.is((await readJson(await get(other, `/transactions?reference_id=${first.id}`))).meta.total, 0);
});

test.serial('monthly billing movements are in the ledger the transactions list reads', async (t) => {
  const tenant = await billedTenant();
  clock.set('2026-11-01T02:00:00Z');
  const { id } = (await billTenantMonth({ tenantId: tenant.tenantId, month: '2026-10' }, app.deps)) as { id: string };
  const res = await readJson(await get(tenant, `/transactions?reference_type=billing_invoice&reference_id=${id}`));
  t.deepEqual(res.data.map((m: { type: string; amount: number }) => [m.type, m.amount]).sort(), [
    ['billing_discount', 4.8],
    ['billing_vat', -9.12],
  ]);
  // 100 + 4.80 − 9.12
  t.is((await readJson(await get(tenant, '/transactions?type=billing_vat'))).data[0].balance_after, 95.68);
});

test.serial('billing invoices: the list, one, its Factur-X; a foreign or unknown id is 404', async (t) => {
  const tenant = await billedTenant();
  clock.set('2026-11-01T02:00:00Z');
  const { id } = (await billTenantMonth({ tenantId: tenant.tenantId, month: '2026-10' }, app.deps)) as { id: string };
  clock.set('2026-11-15T10:00:00Z');

  const list = await readJson(await get(tenant, '/invoices'));
  t.deepEqual(list.meta, { current_page: 1, last_page: 1, per_page: 25, total: 1 });
  const [listed] = list.data;
  t.like(listed, {
    id,
    month: '2026-10',
    issue_date: '2026-11-01',
    status: 'paid',
    documents_status: 'ready',
    invoices: { count: 1200, unit_price: 0.04, amount: 48 },
    signatures: { count: 2, unit_price: 1.2, amount: 2.4 },
    gross_amount: 50.4,
    debited_amount: 50.4,
    vat_debited: 9.12,
    prepaid_amount: 54.72,
    amount_due: 0,
    buyer: { name: 'Platform SAS', siret: '73282932000074', siren: '732829320' },
  });
  t.regex(listed.number, /^FAC-OP-2026-\d{6}$/);
  t.regex(listed.pdf_sha256, /^[0-9a-f]{64}$/);
  t.is((await readJson(await get(tenant, '/invoices?year=2025'))).meta.total, 0);
  t.deepEqual((await readJson(await get(tenant, `/invoices/${id}`))).data, listed);

  const file = await get(tenant, `/invoices/${id}/download`);
  t.is(file.status, 200);
  t.is(file.headers.get('content-type'), 'application/pdf');
  t.regex(file.headers.get('content-disposition') ?? '', /FAC-OP-2026-\d{6}\.facturx\.pdf/);
  const bytes = Buffer.from(await file.arrayBuffer());
  t.is(bytes.subarray(0, 5).toString(), '%PDF-');

  const other = await seedPlatformTenant(app.ownerDb);
  await expectRefusal(t, await get(other, `/invoices/${id}`), 404, 'NOT_FOUND');
  await expectRefusal(t, await get(other, `/invoices/${id}/download`), 404, 'NOT_FOUND');
  t.is((await readJson(await get(other, '/invoices'))).meta.total, 0);
  await expectRefusal(t, await get(tenant, '/invoices/8b0f4c1e-5f0c-4a55-9d55-4cbd1c2f9a11'), 404, 'NOT_FOUND');
  t.is((await get(tenant, '/invoices/not-a-uuid')).status, 404);
});

test.serial('a billing invoice whose Factur-X is not rendered yet answers 409 DOCUMENT_NOT_READY', async (t) => {
  const tenant = await billedTenant();
  clock.set('2026-11-01T02:00:00Z');
  const issued = await execute(
    issueBillingInvoice,
    { tenant_id: tenant.tenantId, month: '2026-10' },
    systemCaller(tenant.tenantId),
    app.deps,
  );
  clock.set('2026-11-15T10:00:00Z');
  const id = issued.billing_invoice!.id;
  t.like((await readJson(await get(tenant, `/invoices/${id}`))).data, {
    documents_status: 'pending',
    pdf_sha256: null,
  });
  await expectRefusal(t, await get(tenant, `/invoices/${id}/download`), 409, 'DOCUMENT_NOT_READY');
});

test.serial('bad query parameters are 422 in the error shape', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  clock.set('2026-11-15T10:00:00Z');
  await expectInvalid(t, await get(tenant, '/usage?month=2026-13'), 'month');
  await expectInvalid(
    t,
    await get(tenant, '/usage?month=2026-12'),
    'month',
    'must not be after the current month (2026-11)',
  );
  await expectInvalid(t, await get(tenant, '/usage?months=0'), 'months');
  await expectInvalid(t, await get(tenant, '/usage?months=abc'), 'months');
  await expectInvalid(t, await get(tenant, '/transactions?type=gift'), 'type');
  await expectInvalid(t, await get(tenant, '/transactions?date_from=2026-02-30'), 'date_from');
  await expectInvalid(
    t,
    await get(tenant, '/transactions?date_from=2026-11-10&date_to=2026-11-01'),
    'date_to',
    'must be on or after date_from',
  );
  await expectInvalid(t, await get(tenant, '/transactions?reference_id=42'), 'reference_id');
  await expectInvalid(t, await get(tenant, '/transactions?per_page=1000'), 'per_page');
  await expectInvalid(t, await get(tenant, '/invoices?page=0'), 'page');
  await expectInvalid(t, await get(tenant, '/invoices?year=26'), 'year');
  await expectInvalid(t, await get(tenant, '/invoices?colour=blue'), 'colour');
});
