import test, { type ExecutionContext } from 'ava';
import { expectRefusal } from '../helpers/assertions.js';
import { postJson, readJson } from '../helpers/http.js';
import { type SeededTenant, seedPlatformTenant } from '../helpers/identities.js';
import { BUYER_SIRET, invoiceBody } from '../helpers/invoice-bodies.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let tenant: SeededTenant;

test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
  tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
});
test.after.always(() => app?.close());

const post = (key: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  app.request(path, postJson(body, { 'X-API-Key': key, ...headers }));
const create = (key: string, body: unknown) => post(key, '/api/v1/invoices', body);

/** A tenant's chain in one environment, in order: each entry's number and the invoice it records. */
async function chainOf(tenantId: string, environment: string): Promise<{ numbers: number[]; invoiceIds: string[] }> {
  const entries = await app
    .ownerDb('fiscal_entries')
    .where({ tenant_id: tenantId, environment })
    .orderBy('sequence_number');
  return { numbers: entries.map((e) => Number(e.sequence_number)), invoiceIds: entries.map((e) => e.entity_id) };
}

/**
 * Whether one transaction wrote invoices of several tenants: the first audit entries of the
 * invoices, never updated, carry the id of the transaction that wrote them (xmin).
 */
async function sharedTransactions(invoiceIds: string[]): Promise<boolean> {
  const rows = await app
    .ownerDb('audit_entries')
    .where({ entity_type: 'invoice', action: 'invoice.created' })
    .whereIn('entity_id', invoiceIds)
    .groupByRaw('xmin::text')
    .select<{ tenants: number }[]>(app.ownerDb.raw('count(distinct tenant_id)::int as tenants'));
  return rows.some((row) => row.tenants > 1);
}

async function invalid(t: ExecutionContext, res: Response, fields: string[]) {
  const body = await readJson(res);
  t.is(res.status, 422, JSON.stringify(body));
  t.deepEqual(Object.keys(body.errors ?? {}).sort(), [...fields].sort(), JSON.stringify(body));
  return body;
}

const setBalance = (tenantId: string, amount: string) =>
  app.ownerDb('balances').where({ tenant_id: tenantId }).update({ amount });
const balanceOf = async (tenantId: string) =>
  (await app.ownerDb('balances').where({ tenant_id: tenantId }).first<{ amount: string }>('amount')).amount;

test('a sandbox invoice is created as a draft, free, with its lines, audit entry, event and ledger entry', async (t) => {
  const res = await create(tenant.keys.sk_test, invoiceBody({ external_id: 'order-1' }));
  const body = await readJson(res);
  t.is(res.status, 201, JSON.stringify(body));
  t.is(body.message, 'Invoice created.');
  const invoice = body.data;
  t.like(invoice, {
    status: 'draft',
    environment: 'sandbox',
    amount_charged: 0,
    total_ht: 1250,
    total_tax: 225,
    total_ttc: 1475,
    seller_vat_number: 'FR44732829320',
    buyer_siret: BUYER_SIRET,
    documents_status: 'pending',
  });
  t.deepEqual(
    invoice.lines.map((l: { line_number: number; vat_category: string }) => [l.line_number, l.vat_category]),
    [
      [1, 'S'],
      [2, 'S'],
    ],
  );
  t.is(invoice.seller.siret, invoice.seller_siret);
  t.is(invoice.buyer.address.city, 'Lyon');

  const entry = await app.ownerDb('fiscal_entries').where({ entity_id: invoice.id }).first();
  t.like(entry, {
    entry_type: 'invoice_created',
    environment: 'sandbox',
    legal_status: 'test',
    tenant_id: tenant.tenantId,
  });
  t.is(JSON.parse(entry.canonical_data).total_ttc, '1475.00');
  const audit = await app.ownerDb('audit_entries').where({ entity_id: invoice.id });
  t.deepEqual(
    audit.map((a) => a.action),
    ['invoice.created'],
  );
  const events = await app.ownerDb('events').where({ tenant_id: tenant.tenantId, name: 'invoice.created' });
  t.true(events.some((e) => e.data.id === invoice.id));
});

test('tenant routes compute the totals left out and check those given', async (t) => {
  const { total_ht, total_tax, total_ttc, direction, output_format, ...rest } = invoiceBody();
  const lines = rest.lines.map(({ total_ht, total_tax, total_ttc, ...line }) => line);
  const res = await app.request(
    '/api/v1/tenant/invoices',
    postJson({ ...rest, lines }, { 'X-Tenant-Key': tenant.keys.sk_test }),
  );
  const body = await readJson(res);
  t.is(res.status, 201, JSON.stringify(body));
  t.like(body.data, {
    total_ht: 1250,
    total_tax: 225,
    total_ttc: 1475,
    direction: 'outgoing',
    output_format: 'facturx',
  });

  const wrong = await app.request(
    '/api/v1/tenant/invoices',
    postJson({ ...rest, lines, total_ht: 1249 }, { 'X-Tenant-Key': tenant.keys.sk_test }),
  );
  const refused = await invalid(t, wrong, ['total_ht']);
  t.regex(refused.errors.total_ht[0], /BR-CO-10/);
});

test('every rule of the specification is checked, each at its field', async (t) => {
  const key = tenant.keys.sk_test;
  await invalid(t, await create(key, invoiceBody({ seller_siret: '73282932000075' })), ['seller_siret']);
  await invalid(t, await create(key, invoiceBody({ buyer_siret: undefined })), ['buyer_siret']);
  await invalid(t, await create(key, invoiceBody({ due_date: '2026-11-01' })), ['due_date']);
  await invalid(t, await create(key, invoiceBody({ currency: 'XXY' })), ['currency']);
  await invalid(t, await create(key, invoiceBody({ invoice_number: 'N'.repeat(51) })), ['invoice_number']);
  await invalid(t, await create(key, invoiceBody({ lines: [] })), ['lines']);
  const body = invoiceBody();
  body.lines[0] = { ...body.lines[0], quantity: 0.0001 };
  await invalid(t, await create(key, body), ['lines.0.quantity']);
  const rate = invoiceBody();
  rate.lines[1] = { ...rate.lines[1], tax_rate: 101 };
  await invalid(t, await create(key, rate), ['lines.1.tax_rate']);
});

test('an individual buyer needs no SIRET', async (t) => {
  const res = await create(
    tenant.keys.sk_test,
    invoiceBody({ buyer_siret: undefined, buyer_is_individual: true, buyer_name: 'Jeanne Martin' }),
  );
  t.is(res.status, 201);
  t.like((await readJson(res)).data, { buyer_is_individual: true, buyer_siret: null });
});

test('totals arithmetic: the 422 names the EN 16931 rule', async (t) => {
  const key = tenant.keys.sk_test;
  const line = invoiceBody();
  line.lines[0] = { ...line.lines[0], total_ht: 999 };
  // Line errors come first: the invoice totals are checked once the lines are right.
  const refused = await invalid(t, await create(key, line), [
    'lines.0.total_ht',
    'lines.0.total_ttc',
    'lines.0.total_tax',
  ]);
  t.regex(refused.errors['lines.0.total_ht'][0], /1000\.00/);
  const tax = await invalid(t, await create(key, invoiceBody({ total_tax: 226, total_ttc: 1476 })), ['total_tax']);
  t.regex(tax.errors.total_tax[0], /BR-CO-14/);
  const ttc = await invalid(t, await create(key, invoiceBody({ total_ttc: 1476 })), ['total_ttc']);
  t.regex(ttc.errors.total_ttc[0], /BR-CO-15/);
});

/** Three lines of 10.05 at 5.5 %: 0.55 VAT each on its own (1.65), 1.66 for the rate (30.15 × 5.5 %). */
const spread = (taxes: number[]) =>
  taxes.map((tax, i) => ({
    description: `Article ${i + 1}`,
    quantity: 1,
    unit_price: 10.05,
    tax_rate: 5.5,
    total_ht: 10.05,
    total_tax: tax,
    total_ttc: Number((10.05 + tax).toFixed(2)),
  }));
const spreadBody = (taxes: number[], totalTax: number) =>
  invoiceBody({
    lines: spread(taxes),
    total_ht: 30.15,
    total_tax: totalTax,
    total_ttc: Number((30.15 + totalTax).toFixed(2)),
  });

test("a line's VAT may be 0.01 from its own rounding when the lines of its rate add up to the rate's VAT", async (t) => {
  const key = tenant.keys.sk_test;
  // The ERP spread the rate's rounding: each line 0.01 away from 0.55, together 1.66.
  const res = await create(key, spreadBody([0.56, 0.56, 0.54], 1.66));
  const body = await readJson(res);
  t.is(res.status, 201, JSON.stringify(body));
  t.deepEqual(
    body.data.lines.map((l: { total_tax: number }) => l.total_tax),
    [0.56, 0.56, 0.54],
  );
  t.like(body.data, { total_tax: 1.66, total_ttc: 31.81 });

  // 0.02 away from its own rounding: refused, whatever the sum.
  let refused = await invalid(t, await create(key, spreadBody([0.57, 0.55, 0.54], 1.66)), ['lines.0.total_tax']);
  t.regex(refused.errors['lines.0.total_tax'][0], /0\.55/);
  // Each 0.01 away, but adding up to 1.67 instead of the rate's 1.66: refused at the lines that moved.
  refused = await invalid(t, await create(key, spreadBody([0.56, 0.56, 0.55], 1.67)), [
    'lines.0.total_tax',
    'lines.1.total_tax',
  ]);
  t.regex(refused.errors['lines.0.total_tax'][0], /add up to that rate's VAT, 1\.66 \(they add up to 1\.67\)/);
  // Lines each on their own rounding stay accepted with the per-line total (the other convention).
  t.is((await create(key, spreadBody([0.55, 0.55, 0.55], 1.65))).status, 201);
});

test('VAT per line or per rate are both accepted; a 0 % line defaults to exempt (E) with a legal reason', async (t) => {
  const key = tenant.keys.sk_test;
  // Three lines of 0.10 at 5.5 %: 0.01 VAT each by line (0.03), 0.02 on the total (0.30 × 5.5 %).
  const lines = [1, 2, 3].map(() => ({
    description: 'Petit article',
    quantity: 1,
    unit_price: 0.1,
    tax_rate: 5.5,
    total_ht: 0.1,
    total_tax: 0.01,
    total_ttc: 0.11,
  }));
  const byLine = await create(key, invoiceBody({ lines, total_ht: 0.3, total_tax: 0.03, total_ttc: 0.33 }));
  t.is(byLine.status, 201);
  const byRate = await create(key, invoiceBody({ lines, total_ht: 0.3, total_tax: 0.02, total_ttc: 0.32 }));
  t.is(byRate.status, 201);

  const zero = [
    {
      description: 'Formation exonérée',
      quantity: 1,
      unit_price: 500,
      tax_rate: 0,
      total_ht: 500,
      total_tax: 0,
      total_ttc: 500,
    },
  ];
  const res = await create(key, invoiceBody({ lines: zero, total_ht: 500, total_tax: 0, total_ttc: 500 }));
  const body = await readJson(res);
  t.is(res.status, 201, JSON.stringify(body));
  t.is(body.data.lines[0].vat_category, 'E');
  t.truthy(body.data.lines[0].vat_exemption_reason);

  const standardAtZero = [{ ...zero[0], vat_category: 'S' }];
  await invalid(
    t,
    await create(key, invoiceBody({ lines: standardAtZero, total_ht: 500, total_tax: 0, total_ttc: 500 })),
    ['lines.0.tax_rate'],
  );
  const intraWithoutVat = [{ ...zero[0], vat_category: 'K' }];
  await invalid(
    t,
    await create(key, invoiceBody({ lines: intraWithoutVat, total_ht: 500, total_tax: 0, total_ttc: 500 })),
    ['buyer_vat_number', 'buyer_country'],
  );
});

test('a reused external_id or invoice number answers 409 naming the invoice', async (t) => {
  const key = tenant.keys.sk_test;
  const first = await readJson(await create(key, invoiceBody({ external_id: 'dup-ext' })));
  const again = await create(key, invoiceBody({ external_id: 'dup-ext' }));
  const body = await expectRefusal(t, again, 409, 'DUPLICATE_EXTERNAL_ID');
  t.is(body.existing_id, first.data.id);
  const numbered = await create(key, invoiceBody({ invoice_number: first.data.invoice_number }));
  const dup = await expectRefusal(t, numbered, 409, 'DUPLICATE_INVOICE_NUMBER');
  t.is(dup.existing_id, first.data.id);
});

test('production: 0.04 EUR is debited in the same transaction; a short balance answers 402 and writes nothing', async (t) => {
  const owner = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  await setBalance(owner.tenantId, '0.05');
  const ok = await create(owner.keys.sk_live, invoiceBody());
  const body = await readJson(ok);
  t.is(ok.status, 201, JSON.stringify(body));
  t.like(body.data, { environment: 'production', amount_charged: 0.04 });
  t.is(await balanceOf(owner.tenantId), '0.01');
  const entry = await app.ownerDb('fiscal_entries').where({ entity_id: body.data.id }).first();
  t.is(entry.legal_status, 'definitive');

  const short = await create(owner.keys.sk_live, invoiceBody({ external_id: 'too-poor' }));
  await expectRefusal(t, short, 402, 'INSUFFICIENT_BALANCE');
  t.is(await balanceOf(owner.tenantId), '0.01');
  t.is((await app.ownerDb('invoices').where({ tenant_id: owner.tenantId })).length, 1);
  t.is((await app.ownerDb('fiscal_entries').where({ tenant_id: owner.tenantId })).length, 1);
  t.is(
    (await app.ownerDb('balance_transactions').where({ tenant_id: owner.tenantId, type: 'invoice_created' })).length,
    1,
  );
});

test('50 concurrent production creations against a balance for 20: exactly 20 succeed and the balance ends at zero', async (t) => {
  const owner = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  await setBalance(owner.tenantId, '0.80');
  const statuses = await Promise.all(
    Array.from({ length: 50 }, async () => (await create(owner.keys.sk_live, invoiceBody())).status),
  );
  t.is(statuses.filter((s) => s === 201).length, 20);
  t.is(statuses.filter((s) => s === 402).length, 30);
  t.is(await balanceOf(owner.tenantId), '0.00');
  t.deepEqual(
    (await chainOf(owner.tenantId, 'production')).numbers,
    Array.from({ length: 20 }, (_, i) => i + 1),
  );
});

test("a tenant whose balance is short gets its 402s without undoing the other tenants' shared creations", async (t) => {
  const poor = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const others = await Promise.all(
    Array.from({ length: 3 }, () => seedPlatformTenant(app.ownerDb, { kyb: 'verified' })),
  );
  await setBalance(poor.tenantId, '0.00');
  for (const other of others) await setBalance(other.tenantId, '10.00');
  const send = async (tenant: SeededTenant) => ({
    tenantId: tenant.tenantId,
    status: (await create(tenant.keys.sk_live, invoiceBody())).status,
  });
  const answers = await Promise.all([
    ...Array.from({ length: 10 }, () => send(poor)),
    ...others.flatMap((other) => Array.from({ length: 10 }, () => send(other))),
  ]);
  for (const a of answers) t.is(a.status, a.tenantId === poor.tenantId ? 402 : 201);
  t.is(await balanceOf(poor.tenantId), '0.00');
  t.is((await app.ownerDb('invoices').where({ tenant_id: poor.tenantId })).length, 0);
  const invoices = await app
    .ownerDb('invoices')
    .whereIn(
      'tenant_id',
      others.map((other) => other.tenantId),
    )
    .select('id');
  t.is(invoices.length, 30);
  t.true(await sharedTransactions(invoices.map((invoice) => invoice.id)), 'the others still shared transactions');
  for (const other of others) {
    t.is(await balanceOf(other.tenantId), '9.60');
    t.deepEqual(
      (await chainOf(other.tenantId, 'production')).numbers,
      Array.from({ length: 10 }, (_, i) => i + 1),
    );
  }
});

test('concurrent creations written together still answer each on its own: created, duplicate, invalid', async (t) => {
  const owner = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const key = owner.keys.sk_test;
  const taken = await readJson(await create(key, invoiceBody({ external_id: 'taken' })));
  // 40 good ones, 5 reusing a taken external_id, 5 with wrong totals, all at once
  const bodies = [
    ...Array.from({ length: 40 }, (_, i) => ({ kind: 'good', body: invoiceBody({ external_id: `order-${i}` }) })),
    ...Array.from({ length: 5 }, () => ({ kind: 'duplicate', body: invoiceBody({ external_id: 'taken' }) })),
    ...Array.from({ length: 5 }, () => ({ kind: 'invalid', body: invoiceBody({ total_ttc: 1 }) })),
  ];
  const answers = await Promise.all(
    bodies.map(async ({ kind, body }) => {
      const res = await create(key, body);
      return { kind, status: res.status, body: await readJson(res), sent: body };
    }),
  );
  for (const a of answers) {
    if (a.kind === 'good') {
      t.is(a.status, 201, JSON.stringify(a.body));
      t.is(
        a.body.data.external_id,
        (a.sent as { external_id?: string }).external_id,
        'each caller gets its own invoice back',
      );
      t.is(a.body.data.invoice_number, a.sent.invoice_number);
    } else if (a.kind === 'duplicate') {
      t.is(a.status, 409);
      t.is(a.body.code, 'DUPLICATE_EXTERNAL_ID');
      t.is(a.body.existing_id, taken.data.id);
    } else {
      t.is(a.status, 422);
      t.regex(a.body.message, /BR-CO-15/);
    }
  }
  const invoices = await app.ownerDb('invoices').where({ tenant_id: owner.tenantId }).select('*', 'xmin');
  t.is(invoices.length, 41);
  // rows written by one transaction share its xmin: concurrent creations were committed together
  t.true(new Set(invoices.map((i) => i.xmin)).size < 41, 'group commit wrote several invoices per transaction');
  const chain = await chainOf(owner.tenantId, 'sandbox');
  t.deepEqual(
    chain.numbers,
    Array.from({ length: 41 }, (_, i) => i + 1),
  );
  t.deepEqual(chain.invoiceIds.sort(), invoices.map((i) => i.id).sort());
  const audit = await app.ownerDb('audit_entries').whereIn(
    'entity_id',
    invoices.map((i) => i.id),
  );
  t.is(audit.length, 41);
  const events = await app.ownerDb('events').where({ tenant_id: owner.tenantId, name: 'invoice.created' });
  t.is(events.length, 41);
  const jobs = await app.ownerDb.raw(
    "select count(*)::int as n from pgboss.job where name = 'generate-invoice-documents' and data->>'tenantId' = ?",
    [owner.tenantId],
  );
  t.is(jobs.rows[0].n, 41);
});

test("concurrent creations of several tenants share transactions, each invoice in its tenant's rows and chain", async (t) => {
  const tenants = await Promise.all(
    Array.from({ length: 5 }, () => seedPlatformTenant(app.ownerDb, { kyb: 'verified' })),
  );
  const taken = await readJson(await create(tenants[0].keys.sk_test, invoiceBody({ external_id: 'taken' })));
  // the same external ids and numbers in every tenant: each is unique within its own tenant only;
  // the first tenant also reuses an external id of its own, which must not cost the others their batch
  const [answers, reused] = await Promise.all([
    Promise.all(
      tenants.flatMap((tenant, k) =>
        Array.from({ length: 8 }, async (_, i) => {
          const sent = invoiceBody({ external_id: `order-${i}`, invoice_number: `F-2026-${i}` });
          const res = await create(tenant.keys.sk_test, sent);
          return { k, i, status: res.status, body: await readJson(res) };
        }),
      ),
    ),
    Promise.all(
      Array.from({ length: 3 }, async () => {
        const res = await create(tenants[0].keys.sk_test, invoiceBody({ external_id: 'taken' }));
        return { status: res.status, body: await readJson(res) };
      }),
    ),
  ]);
  for (const r of reused)
    t.like(r, { status: 409, body: { code: 'DUPLICATE_EXTERNAL_ID', existing_id: taken.data.id } });
  for (const a of answers) {
    t.is(a.status, 201, JSON.stringify(a.body));
    t.like(a.body.data, { external_id: `order-${a.i}`, invoice_number: `F-2026-${a.i}` });
  }
  const ids = tenants.map((tenant) => tenant.tenantId);
  const invoices = await app
    .ownerDb('invoices')
    .whereIn('tenant_id', ids)
    .whereNot({ id: taken.data.id })
    .select('id', 'tenant_id');
  t.is(invoices.length, 40);
  for (const a of answers) {
    const row = invoices.find((invoice) => invoice.id === a.body.data.id);
    t.is(row?.tenant_id, ids[a.k], 'each invoice is written for the tenant whose key created it');
  }
  t.true(
    await sharedTransactions(invoices.map((invoice) => invoice.id)),
    'group commit wrote several tenants in one transaction',
  );
  for (const [k, tenant] of tenants.entries()) {
    const mine = answers.filter((a) => a.k === k).map((a) => a.body.data.id);
    const chain = await chainOf(tenant.tenantId, 'sandbox');
    const before = k === 0 ? [taken.data.id] : [];
    t.deepEqual(
      chain.numbers,
      Array.from({ length: before.length + 8 }, (_, n) => n + 1),
    );
    t.deepEqual(chain.invoiceIds.sort(), [...before, ...mine].sort(), "a tenant's chain holds its invoices only");
    const events = await app.ownerDb('events').where({ tenant_id: tenant.tenantId, name: 'invoice.created' });
    t.deepEqual(events.map((e) => e.data.id).sort(), [...before, ...mine].sort());
    const integrity = await app.request('/api/v1/tenant/fiscal/integrity', {
      headers: { 'X-Tenant-Key': tenant.keys.sk_test },
    });
    t.like(await readJson(integrity), { valid: true, entries_checked: before.length + 8 });
    // another tenant's key finds none of them
    const other = tenants[(k + 1) % tenants.length];
    const foreign = await app.request(`/api/v1/invoices/${mine[0]}`, { headers: { 'X-API-Key': other.keys.sk_test } });
    t.is(foreign.status, 404);
  }
});

test('sub-tenant invoices go to the sub-tenant chain; a foreign sub-tenant is 404', async (t) => {
  const res = await app.request(
    '/api/v1/tenant/sub-tenants',
    postJson({ external_id: `client-${Date.now()}`, name: 'Client SARL' }, { 'X-Tenant-Key': tenant.keys.sk_test }),
  );
  const subTenant = (await readJson(res)).data;
  const created = await app.request(
    `/api/v1/tenant/sub-tenants/${subTenant.id}/invoices`,
    postJson(invoiceBody(), { 'X-Tenant-Key': tenant.keys.sk_test }),
  );
  const invoice = (await readJson(created)).data;
  t.is(created.status, 201);
  t.is(invoice.sub_tenant_id, subTenant.id);
  const entry = await app.ownerDb('fiscal_entries').where({ entity_id: invoice.id }).first();
  t.is(entry.sub_tenant_id, subTenant.id);
  t.is(Number(entry.sequence_number), 1);

  const stranger = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const foreign = await app.request(
    `/api/v1/tenant/sub-tenants/${subTenant.id}/invoices`,
    postJson(invoiceBody(), { 'X-Tenant-Key': stranger.keys.sk_test }),
  );
  await expectRefusal(t, foreign, 404, 'NOT_FOUND');
});

test('bulk: per-item results by index, and nothing written for a refused item', async (t) => {
  const owner = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const good = invoiceBody();
  const bad = invoiceBody({ seller_siret: '12345678901234' });
  const dup = invoiceBody({ invoice_number: good.invoice_number });
  const res = await app.request(
    '/api/v1/tenant/invoices/bulk',
    postJson({ invoices: [good, bad, dup, invoiceBody()] }, { 'X-Tenant-Key': owner.keys.sk_test }),
  );
  const body = await readJson(res);
  t.is(res.status, 200, JSON.stringify(body));
  t.like(body.data, { created: 2, failed: 2 });
  t.deepEqual(
    body.data.results.map((r: { index: number; status: string; error?: { code: string } }) => [
      r.index,
      r.status,
      r.error?.code,
    ]),
    [
      [0, 'created', undefined],
      [1, 'failed', 'VALIDATION_ERROR'],
      [2, 'failed', 'DUPLICATE_INVOICE_NUMBER'],
      [3, 'created', undefined],
    ],
  );
  t.truthy(body.data.results[1].error.errors.seller_siret);
  t.is((await app.ownerDb('invoices').where({ tenant_id: owner.tenantId })).length, 2);
  const entries = await app.ownerDb('fiscal_entries').where({ tenant_id: owner.tenantId }).orderBy('sequence_number');
  t.deepEqual(
    entries.map((e) => Number(e.sequence_number)),
    [1, 2],
  );
  t.is((await app.ownerDb('audit_entries').where({ tenant_id: owner.tenantId })).length, 2);

  const tooMany = await app.request(
    '/api/v1/tenant/invoices/bulk',
    postJson({ invoices: Array.from({ length: 101 }, () => ({})) }, { 'X-Tenant-Key': owner.keys.sk_test }),
  );
  await invalid(t, tooMany, ['invoices']);
});

test('the sandbox route refuses production keys', async (t) => {
  const res = await post(tenant.keys.sk_live, '/api/v1/sandbox/invoices', invoiceBody());
  await expectRefusal(t, res, 403, 'API_KEY_ENVIRONMENT_MISMATCH');
  const ok = await post(tenant.keys.sk_test, '/api/v1/sandbox/invoices', invoiceBody());
  t.is(ok.status, 201);
  t.is((await readJson(ok)).data.environment, 'sandbox');
});

test('invoice fields are locked in the database once in the ledger, whoever writes', async (t) => {
  const created = (await readJson(await create(tenant.keys.sk_test, invoiceBody()))).data;
  const error = await t.throwsAsync(app.ownerDb('invoices').where({ id: created.id }).update({ total_ttc: 1 }));
  t.regex(error?.message ?? '', /fiscal fields are locked/);
  await t.throwsAsync(
    app.ownerDb('invoice_lines').where({ invoice_id: created.id }).update({ description: 'changed' }),
  );
  await t.throwsAsync(app.ownerDb('invoices').where({ id: created.id }).del());
  await app
    .ownerDb('invoices')
    .where({ id: created.id })
    .update({ metadata: { note: 'ok' } });
  t.pass();
});

test('hostile input gets a 422 at its path, never a 500: NUL characters, huge numbers, impossible dates', async (t) => {
  const key = tenant.keys.sk_test;
  const { total_ht, total_tax, total_ttc, lines, ...base } = invoiceBody();
  const line = { description: 'x', quantity: 1, unit_price: 1, tax_rate: 20 };
  const tenantCreate = (body: unknown) =>
    app.request('/api/v1/tenant/invoices', postJson(body, { 'X-Tenant-Key': key }));
  await invalid(t, await tenantCreate({ ...base, lines: [{ ...line, description: 'a\u0000b' }] }), [
    'lines.0.description',
  ]);
  await invalid(t, await tenantCreate({ ...base, invoice_number: 'F\u00001', lines: [line] }), ['invoice_number']);
  await invalid(t, await tenantCreate({ ...base, metadata: { 'k\u0000': 'v' }, lines: [line] }), ['metadata.k\u0000']);
  await invalid(t, await tenantCreate({ ...base, lines: [{ ...line, unit_price: 1e300 }] }), ['lines.0.unit_price']);
  await invalid(t, await tenantCreate({ ...base, lines: [{ ...line, quantity: 1e9, unit_price: 1e9 }] }), [
    'lines.0.quantity',
  ]);
  const many = Array.from({ length: 200 }, () => ({ ...line, quantity: 1e6, unit_price: 1e6 }));
  await invalid(t, await tenantCreate({ ...base, lines: many }), ['lines']);
  await invalid(t, await tenantCreate({ ...base, issue_date: '2026-02-30', lines: [line] }), ['issue_date']);
  await invalid(t, await create(key, invoiceBody({ total_ttc: 1e300 })), ['total_ttc']);
});
