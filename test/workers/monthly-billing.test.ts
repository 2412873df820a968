import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import type { Knex } from 'knex';
import { runMonthlyBilling } from '../../domain/billing/operations/index.js';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import { billTenantMonth } from '../../workers/handlers/bill-tenant-month.js';
import { runMonthlyBillingJob } from '../../workers/handlers/run-monthly-billing.js';
import { SCHEDULES, WORKERS } from '../../workers/queues.js';
import { validateAll } from '../helpers/einvoice-validator.js';
import { queuedJobs } from '../helpers/fiscal-closings.js';
import { seedPlatformTenant, seedUser } from '../helpers/identities.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { TestClock, withClock } from '../helpers/test-clock.js';

// 02:30 in Paris on 1 November 2026: October has ended.
const clock = new TestClock('2026-11-01T01:30:00Z');
let app: TestApp;
test.before(async () => {
  app = await startTestApp({
    env: {
      RATE_LIMIT_SCALE: '0',
      PUBLISHER_NAME: 'Opérateur Facturation SAS',
      PUBLISHER_SIREN: '732829320',
      PUBLISHER_ADDRESS: '1 rue de la Paix, 75002 Paris',
    },
    override: withClock(clock),
  });
});
test.after.always(() => app?.close());

type Kind = 'invoice_created' | 'signature_created' | 'credit_note_created';
const PRICE: Record<Kind, string> = { invoice_created: '0.04', signature_created: '1.20', credit_note_created: '0.04' };

/**
 * `count` usage debits of one kind, seeded in one statement, spread over October 2026 in Paris
 * (1 October 00:00 Paris is 30 September 22:00 UTC).
 */
async function seedUsage(db: Knex, tenantId: string, type: Kind, count: number, from = '2026-09-30T22:00:00Z') {
  if (count === 0) return;
  await db.raw(
    `insert into balance_transactions (tenant_id, type, amount, balance_after, currency, reference_type, reference_id, created_at)
     select ?, ?, -(?::numeric), 500, 'EUR', ?, gen_random_uuid(), ?::timestamptz + (i * interval '1 minute')
     from generate_series(0, ? - 1) i`,
    [tenantId, type, PRICE[type], type.replace('_created', ''), from, count],
  );
}

async function tenantWithUsage(
  usage: { invoices: number; signatures: number; creditNotes: number },
  balance = '1000.00',
) {
  const tenant = await seedPlatformTenant(app.ownerDb);
  await app
    .ownerDb('tenants')
    .where({ id: tenant.tenantId })
    .update({ legal_name: 'Plateforme Cliente SAS', vat_number: 'FR44732829320' });
  await app.ownerDb('balances').where({ tenant_id: tenant.tenantId }).update({ amount: balance });
  await seedUsage(app.ownerDb, tenant.tenantId, 'invoice_created', usage.invoices);
  await seedUsage(app.ownerDb, tenant.tenantId, 'signature_created', usage.signatures);
  await seedUsage(app.ownerDb, tenant.tenantId, 'credit_note_created', usage.creditNotes);
  return tenant;
}

const invoicesOf = (tenantId: string) => app.ownerDb('billing_invoices').where({ tenant_id: tenantId });
const movementsOf = (tenantId: string, type: string) =>
  app.ownerDb('balance_transactions').where({ tenant_id: tenantId, type }).orderBy('created_at');
const balanceOf = async (tenantId: string) =>
  (await app.ownerDb('balances').where({ tenant_id: tenantId }).first<{ amount: string }>('amount')).amount;

const dir = mkdtemp(path.join(tmpdir(), 'billing-invoices-'));

/**
 * The four months of the brief, computed by hand (unit prices 0.04, 1.20, 0.04; the tier reached
 * by the invoice count takes its rate off the whole invoices' line, rounded half up to the cent;
 * VAT 20 % of the total, rounded half up).
 */
const CASES = [
  {
    name: '999 invoices: no discount',
    usage: { invoices: 999, signatures: 3, creditNotes: 2 },
    // 999 × 0.04 = 39.96; 3 × 1.20 = 3.60; 2 × 0.04 = 0.08; gross 43.64
    expected: { gross: 43.64, rate: 0, discount: 0, ht: 43.64, vat: 8.73, ttc: 52.37 }, // VAT 8.728 → 8.73
  },
  {
    name: '1,001 invoices: −10 %',
    usage: { invoices: 1001, signatures: 5, creditNotes: 10 },
    // 1001 × 0.04 = 40.04, 10 % = 4.004 → 4.00; 5 × 1.20 = 6.00; 10 × 0.04 = 0.40; gross 46.44
    expected: { gross: 46.44, rate: 10, discount: 4.0, ht: 42.44, vat: 8.49, ttc: 50.93 }, // VAT 8.488 → 8.49
  },
  {
    name: '5,001 invoices: −20 %',
    usage: { invoices: 5001, signatures: 2, creditNotes: 1 },
    // 5001 × 0.04 = 200.04, 20 % = 40.008 → 40.01; 2 × 1.20 = 2.40; 1 × 0.04 = 0.04; gross 202.48
    expected: { gross: 202.48, rate: 20, discount: 40.01, ht: 162.47, vat: 32.49, ttc: 194.96 }, // 32.494 → 32.49
  },
  {
    name: '10,001 invoices: −30 %',
    usage: { invoices: 10001, signatures: 0, creditNotes: 7 },
    // 10001 × 0.04 = 400.04, 30 % = 120.012 → 120.01; 7 × 0.04 = 0.28; gross 400.32
    expected: { gross: 400.32, rate: 30, discount: 120.01, ht: 280.31, vat: 56.06, ttc: 336.37 }, // 56.062 → 56.06
  },
] as const;

test('the run is scheduled on the 1st in Paris and both queues have a worker', (t) => {
  t.deepEqual(
    SCHEDULES.find((s) => s.queue === 'run-monthly-billing'),
    { queue: 'run-monthly-billing', cron: '0 2 1 * *', tz: 'Europe/Paris' },
  );
  t.truthy(WORKERS['run-monthly-billing'].handler);
  t.truthy(WORKERS['bill-tenant-month'].handler);
});

test.serial('999, 1,001, 5,001 and 10,001 invoices: exact totals, reconciled, valid Factur-X', async (t) => {
  const written: { file: string; label: string }[] = [];
  for (const c of CASES) {
    const tenant = await tenantWithUsage(c.usage);
    const result = await billTenantMonth({ tenantId: tenant.tenantId, month: '2026-10' }, app.deps);
    t.is((result as { outcome: string }).outcome, 'issued', c.name);
    const row = await invoicesOf(tenant.tenantId).first();
    const amounts = {
      gross: Number(row.gross_amount),
      rate: Number(row.discount_rate),
      discount: Number(row.discount_amount),
      ht: Number(row.total_ht),
      vat: Number(row.total_vat),
      ttc: Number(row.total_ttc),
    };
    t.deepEqual(amounts, { ...c.expected }, c.name);
    t.like(row, {
      period: '2026-10',
      issue_date: '2026-11-01',
      invoices_count: c.usage.invoices,
      signatures_count: c.usage.signatures,
      credit_notes_count: c.usage.creditNotes,
      documents_status: 'ready',
    });
    t.regex(row.number, /^FAC-OP-2026-\d{6}$/);
    const [event] = await app.ownerDb('events').where({ tenant_id: tenant.tenantId, name: 'billing_invoice.created' });
    t.deepEqual(event.data, {
      id: row.id,
      number: row.number,
      month: '2026-10',
      total_ttc: c.expected.ttc,
      amount_due: 0,
      currency: 'EUR',
    });

    // Reconciliation: the debits prepaid the gross amount, the discount came back, the VAT was taken.
    t.is(Number(row.debited_amount), c.expected.gross, c.name);
    t.is(Number(row.vat_debited), c.expected.vat, c.name);
    t.is(Number(row.prepaid_amount), c.expected.ttc, c.name);
    t.is(Number(row.amount_due), 0, c.name);
    const discounts = await movementsOf(tenant.tenantId, 'billing_discount');
    t.deepEqual(
      discounts.map((m) => [Number(m.amount), m.reference_type, m.reference_id]),
      c.expected.discount ? [[c.expected.discount, 'billing_invoice', row.id]] : [],
      c.name,
    );
    const vat = await movementsOf(tenant.tenantId, 'billing_vat');
    t.deepEqual(
      vat.map((m) => [Number(m.amount), m.reference_id]),
      [[-c.expected.vat, row.id]],
    );
    t.is(Number(await balanceOf(tenant.tenantId)), Number((1000 + c.expected.discount - c.expected.vat).toFixed(2)));

    // The Factur-X says the same figures.
    const file = path.join(await dir, `${row.number}.pdf`);
    const { pdf, cii } = await app.ownerDb('billing_invoices').where({ id: row.id }).first('pdf', 'cii');
    t.is(pdf.subarray(0, 5).toString(), '%PDF-');
    const xml = cii.toString('utf8');
    t.true(xml.includes(`<ram:GrandTotalAmount>${c.expected.ttc.toFixed(2)}</ram:GrandTotalAmount>`), c.name);
    t.true(xml.includes(`<ram:TaxBasisTotalAmount>${c.expected.ht.toFixed(2)}</ram:TaxBasisTotalAmount>`), c.name);
    t.true(xml.includes(`<ram:TotalPrepaidAmount>${c.expected.ttc.toFixed(2)}</ram:TotalPrepaidAmount>`), c.name);
    t.true(xml.includes('<ram:DuePayableAmount>0.00</ram:DuePayableAmount>'), c.name);
    t.true(xml.includes('<ram:Name>Plateforme Cliente SAS</ram:Name>'), c.name);
    t.true(xml.includes('<ram:Name>Opérateur Facturation SAS</ram:Name>'), c.name);
    await writeFile(file, pdf);
    written.push({ file, label: c.name });
  }
  const report = validateAll(written.map((w) => w.file));
  for (const w of written) {
    const result = report.files.find((f) => f.file === w.file);
    const errors = result?.errors.map((e) => `  [${e.rule}] ${e.message}`).join('\n');
    t.true(result?.valid === true && result.errors.length === 0, `${w.label}\n${errors ?? 'no report'}`);
  }
});

test.serial('only the Paris month counts: the debits either side of its edges are left out', async (t) => {
  const tenant = await tenantWithUsage({ invoices: 0, signatures: 0, creditNotes: 0 });
  // 30 Sep 23:59 in Paris (UTC+2) and 1 Nov 00:00 in Paris (UTC+1) are outside; the edges inside count.
  await seedUsage(app.ownerDb, tenant.tenantId, 'invoice_created', 1, '2026-09-30T21:59:00Z');
  await seedUsage(app.ownerDb, tenant.tenantId, 'invoice_created', 1, '2026-09-30T22:00:00Z');
  await seedUsage(app.ownerDb, tenant.tenantId, 'invoice_created', 1, '2026-10-31T22:59:00Z');
  await seedUsage(app.ownerDb, tenant.tenantId, 'invoice_created', 1, '2026-10-31T23:00:00Z');
  await billTenantMonth({ tenantId: tenant.tenantId, month: '2026-10' }, app.deps);
  const row = await invoicesOf(tenant.tenantId).first();
  t.is(row.invoices_count, 2);
  t.is(Number(row.total_ht), 0.08);
});

test.serial('a balance that cannot cover the VAT leaves it due on the invoice, never overdrawn', async (t) => {
  const tenant = await tenantWithUsage({ invoices: 10, signatures: 1, creditNotes: 0 }, '0.00');
  await billTenantMonth({ tenantId: tenant.tenantId, month: '2026-10' }, app.deps);
  const row = await invoicesOf(tenant.tenantId).first();
  // 10 × 0.04 + 1.20 = 1.60; VAT 0.32; TTC 1.92: the debits prepaid 1.60, 0.32 remains due.
  t.like(row, { total_ht: '1.60', total_vat: '0.32', total_ttc: '1.92', vat_debited: '0.00' });
  t.like(row, { prepaid_amount: '1.60', amount_due: '0.32' });
  t.deepEqual(await movementsOf(tenant.tenantId, 'billing_vat'), []);
  t.is(await balanceOf(tenant.tenantId), '0.00');
  const xml = (await app.ownerDb('billing_invoices').where({ id: row.id }).first('cii')).cii.toString('utf8');
  t.true(xml.includes('<ram:DuePayableAmount>0.32</ram:DuePayableAmount>'));
  const file = path.join(await dir, 'due.pdf');
  await writeFile(file, (await app.ownerDb('billing_invoices').where({ id: row.id }).first('pdf')).pdf);
  const report = validateAll([file]);
  t.true(report.valid, JSON.stringify(report.files[0]?.errors));
});

test.serial('running the month twice, and twice at once, issues one invoice and one set of movements', async (t) => {
  const tenant = await tenantWithUsage({ invoices: 1500, signatures: 2, creditNotes: 1 });
  const job = { tenantId: tenant.tenantId, month: '2026-10' };
  const [a, b] = (await Promise.all([billTenantMonth(job, app.deps), billTenantMonth(job, app.deps)])) as {
    outcome: string;
    id: string;
  }[];
  t.deepEqual([a.outcome, b.outcome].sort(), ['existing', 'issued']);
  t.is(a.id, b.id);
  const again = (await billTenantMonth(job, app.deps)) as { outcome: string; id: string };
  t.deepEqual(again, { outcome: 'existing', id: a.id });
  t.is((await invoicesOf(tenant.tenantId)).length, 1);
  t.is((await movementsOf(tenant.tenantId, 'billing_discount')).length, 1);
  t.is((await movementsOf(tenant.tenantId, 'billing_vat')).length, 1);
  const events = await app.ownerDb('events').where({ tenant_id: tenant.tenantId, name: 'billing_invoice.created' });
  t.deepEqual(
    events.map((e) => [e.environment, e.data.id]),
    [['production', a.id]],
  );
  // The database refuses a second invoice for the month whatever the code does.
  const row = await invoicesOf(tenant.tenantId).first();
  const { id: _id, number: _n, created_at: _c, updated_at: _u, ...copy } = row;
  const err = await t.throwsAsync(app.ownerDb('billing_invoices').insert({ ...copy, number: 'FAC-OP-2026-999999' }));
  t.regex(err.message, /billing_invoices_tenant_id_period_key/);
});

test.serial('the run queues one job per platform tenant with usage, once; numbers have no gaps', async (t) => {
  await app.ownerDb.raw("delete from pgboss.job where name = 'bill-tenant-month'");
  const billed = await tenantWithUsage({ invoices: 3, signatures: 0, creditNotes: 0 });
  await tenantWithUsage({ invoices: 0, signatures: 0, creditNotes: 0 }); // nothing used: nothing billed
  // A dashboard user's workspace pays per use too, but the monthly invoice is the platform tenants'.
  const user = await seedUser(app.ownerDb);
  await seedUsage(app.ownerDb, user.tenantId, 'invoice_created', 4);

  const first = await runMonthlyBillingJob({}, app.deps);
  const second = await execute(runMonthlyBilling, { month: '2026-10' }, systemCaller(), app.deps);
  const jobs = await queuedJobs<{ tenantId: string; month: string }>(app.ownerDb, 'bill-tenant-month');
  t.true(jobs.some((j) => j.tenantId === billed.tenantId && j.month === '2026-10'));
  t.false(jobs.some((j) => j.tenantId === user.tenantId));
  t.is(new Set(jobs.map((j) => j.tenantId)).size, jobs.length, 'one job per tenant');
  t.like(first, { month: '2026-10', queued: jobs.length });
  t.like(second, { month: '2026-10', queued: 0 });

  for (const job of jobs) await billTenantMonth(job, app.deps);
  const numbers = (await app.ownerDb('billing_invoices').orderBy('number').pluck('number')) as string[];
  t.deepEqual(
    numbers,
    numbers.map((_, i) => `FAC-OP-2026-${String(i + 1).padStart(6, '0')}`),
  );
  t.is((await invoicesOf(user.tenantId)).length, 0);
});

test.serial('a month that has not ended is refused', async (t) => {
  for (const month of ['2026-11', '2027-01']) {
    const err = await t.throwsAsync(execute(runMonthlyBilling, { month }, systemCaller(), app.deps));
    t.like(err, { code: 'VALIDATION_ERROR' });
  }
});
