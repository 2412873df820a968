import test from 'ava';
import { TENANT_KEY_SCOPES } from '../../domain/tenants/api-key.js';
import { insertApiKey } from '../../domain/tenants/api-key-store.js';
import { expectInvalid, expectRefusal } from '../helpers/assertions.js';
import { postJson, readJson } from '../helpers/http.js';
import { type SeededTenant, seedPlatformTenant } from '../helpers/identities.js';
import { invoiceBody } from '../helpers/invoice-bodies.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
});
test.after.always(() => app?.close());

const RULES = '/api/v1/tenant/fiscal/rules';
const get = (key: string, path = '') => app.request(`${RULES}${path}`, { headers: { 'X-Tenant-Key': key } });
const post = (key: string, path: string, body: unknown) =>
  app.request(`${RULES}${path}`, postJson(body, { 'X-Tenant-Key': key }));
const put = (key: string, ref: string, body: unknown) =>
  app.request(`${RULES}/${ref}`, { ...postJson(body, { 'X-Tenant-Key': key }), method: 'PUT' });

const ACCOUNTS = {
  customers: { number: '411', label: 'Clients' },
  revenue: { number: '706', label: 'Prestations de services' },
  vat_collected: { number: '44571', label: 'TVA collectée' },
  bank: { number: '512', label: 'Banque' },
  suppliers: { number: '401', label: 'Fournisseurs' },
  purchases: { number: '607', label: 'Achats de marchandises' },
  vat_deductible: { number: '44566', label: 'TVA déductible sur autres biens et services' },
};

const createInvoice = async (tenant: SeededTenant, overrides: Record<string, unknown>) => {
  const res = await app.request(
    '/api/v1/tenant/invoices',
    postJson(invoiceBody(overrides), { 'X-Tenant-Key': tenant.keys.sk_test }),
  );
  const body = await readJson(res);
  if (res.status !== 201) throw new Error(`invoice: ${res.status} ${JSON.stringify(body)}`);
  return body.data;
};

test('built-in rules: listed in force, one per key, with their history and the JSON export', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const key = tenant.keys.sk_test;
  const list = await readJson(await get(key));
  t.deepEqual(
    list.data.map((r: { key: string; version: number; source: string; in_force: boolean }) => [
      r.key,
      r.version,
      r.source,
      r.in_force,
    ]),
    [
      ['fec.accounts', 1, 'default', true],
      ['fec.journals', 1, 'default', true],
      ['vat.rounding', 1, 'default', true],
    ],
  );
  const accounts = await readJson(await get(key, '/fec.accounts'));
  t.deepEqual(accounts.data.value, ACCOUNTS);
  t.is(accounts.data.effective_from, '1900-01-01');
  t.is(accounts.data.created_by, null);
  t.deepEqual((await readJson(await get(key, '/fec.journals'))).data.value, {
    sales: { code: 'VT', label: 'Journal des ventes' },
    purchases: { code: 'AC', label: 'Journal des achats' },
    bank: { code: 'BQ', label: 'Journal de banque' },
  });
  t.is((await readJson(await get(key, '/vat.rounding/history'))).data.length, 1);
  await expectRefusal(t, await get(key, '/no.such_rule'), 404, 'NOT_FOUND');
  await expectRefusal(t, await get(key, '/no.such_rule/history'), 404, 'NOT_FOUND');

  // `export` is not taken for a key: it is the download of every version.
  const exported = await get(key, '/export');
  t.is(exported.status, 200);
  t.regex(exported.headers.get('content-type') ?? '', /^application\/json/);
  t.regex(
    exported.headers.get('content-disposition') ?? '',
    /^attachment; filename="fiscal-rules-sandbox-\d{8}\.json"/,
  );
  const body = await readJson(exported);
  t.is(body.tenant_id, tenant.tenantId);
  t.is(body.environment, 'sandbox');
  t.is(body.rules.length, 3);
});

test('create: 201 with version 1; 409 for an existing key (yours or built-in); 422 for bad keys, dates and values', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const key = tenant.keys.sk_test;
  const rule = {
    key: 'custom.payment_terms',
    value: { days: 30 },
    description: 'Payment within 30 days.',
    effective_from: '2025-01-01',
  };
  const created = await post(key, '', rule);
  const body = await readJson(created);
  t.is(created.status, 201, JSON.stringify(body));
  t.like(body.data, { key: 'custom.payment_terms', version: 1, source: 'tenant', in_force: true, value: { days: 30 } });
  t.is(body.data.created_by.credential_type, 'secret_key');

  const again = await expectRefusal(t, await post(key, '', rule), 409, 'CONFLICT');
  t.is(again.existing_id, body.data.id);
  const builtIn = await expectRefusal(
    t,
    await post(key, '', { ...rule, key: 'fec.accounts', value: ACCOUNTS }),
    409,
    'CONFLICT',
  );
  t.is(builtIn.existing_id, (await readJson(await get(key, '/fec.accounts'))).data.id);

  await expectInvalid(t, await post(key, '', { ...rule, key: 'Payment Terms' }), 'key');
  await expectInvalid(t, await post(key, '', { ...rule, key: 'export' }), 'key');
  await expectInvalid(t, await post(key, '', { ...rule, key: 'fec.acounts' }), 'key');
  await expectInvalid(
    t,
    await post(key, '', { ...rule, key: 'custom.other', effective_from: '2025-02-30' }),
    'effective_from',
  );
  await expectInvalid(t, await post(key, '', { ...rule, key: 'custom.other', value: null }), 'value');
  await expectInvalid(t, await post(key, '', { ...rule, key: 'custom.other', description: '  ' }), 'description');
  await expectInvalid(t, await post(key, '', { ...rule, key: 'custom.other', extra: 1 }), 'extra');
  // Another environment has its own rules: the production key may create the same key.
  t.is((await post(tenant.keys.sk_live, '', rule)).status, 201);
});

test('update: a new version, earlier versions unchanged; a known key’s value must follow its schema; foreign ids are 404', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const key = tenant.keys.sk_test;
  const builtIn = (await readJson(await get(key, '/fec.accounts'))).data;

  await expectInvalid(
    t,
    await put(key, builtIn.id, {
      value: { ...ACCOUNTS, revenue: { number: 'ABC', label: 'x' } },
      effective_from: '2025-07-01',
    }),
    'value.revenue.number',
  );
  await expectInvalid(
    t,
    await put(key, builtIn.id, {
      value: { ...ACCOUNTS, revenue: { number: '706', label: 'a|b' } },
      effective_from: '2025-07-01',
    }),
    'value.revenue.label',
  );
  await expectInvalid(t, await put(key, builtIn.id, { value: ACCOUNTS }), 'effective_from');

  const changed = { ...ACCOUNTS, revenue: { number: '7061', label: 'Prestations France' } };
  const res = await put(key, builtIn.id, { value: changed, effective_from: '2025-07-01' });
  const v2 = (await readJson(res)).data;
  t.is(res.status, 200, JSON.stringify(v2));
  t.like(v2, { key: 'fec.accounts', version: 2, source: 'tenant', effective_from: '2025-07-01', in_force: true });
  t.is(v2.description, builtIn.description);
  // By key too, and the versions go on.
  const v3 = (
    await readJson(
      await put(key, 'fec.accounts', { value: changed, effective_from: '2030-01-01', description: 'Later' }),
    )
  ).data;
  t.like(v3, { version: 3, in_force: false, description: 'Later' });

  const history = (await readJson(await get(key, '/fec.accounts/history'))).data;
  t.deepEqual(
    history.map((v: { version: number; in_force: boolean }) => [v.version, v.in_force]),
    [
      [1, false],
      [2, true],
      [3, false],
    ],
  );
  t.deepEqual(history[0].value, ACCOUNTS, 'the built-in version is unchanged');
  const on = async (date: string) => (await readJson(await get(key, `/fec.accounts?date=${date}`))).data.version;
  t.is(await on('2025-06-30'), 1);
  t.is(await on('2025-07-01'), 2);
  t.is(await on('2030-01-01'), 3);
  t.is(
    (await readJson(await get(key, '?date=2025-06-30'))).data.find((r: { key: string }) => r.key === 'fec.accounts')
      .version,
    1,
  );
  // The production environment still has the built-in version.
  t.is((await readJson(await get(tenant.keys.sk_live, '/fec.accounts'))).data.version, 1);

  const other = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  await expectRefusal(
    t,
    await put(other.keys.sk_test, v2.id, { value: ACCOUNTS, effective_from: '2025-01-01' }),
    404,
    'NOT_FOUND',
  );
  await expectRefusal(
    t,
    await put(key, '6f1c8c1e-0000-4000-8000-000000000000', { value: ACCOUNTS, effective_from: '2025-01-01' }),
    404,
    'NOT_FOUND',
  );
  t.is((await readJson(await get(other.keys.sk_test, '/fec.accounts'))).data.version, 1);

  // History is append-only in the database itself.
  const err = await t.throwsAsync(
    app
      .ownerDb('fiscal_rules')
      .where({ id: v2.id })
      .update({ value: JSON.stringify({}) }),
  );
  t.regex(err!.message, /fiscal_rules is append-only: UPDATE is refused/);
  const gap = await t.throwsAsync(
    app.ownerDb('fiscal_rules').insert({
      tenant_id: tenant.tenantId,
      environment: 'sandbox',
      key: 'fec.accounts',
      version: 7,
      value: JSON.stringify(ACCOUNTS),
      description: 'x',
      effective_from: '2025-01-01',
      created_at: new Date(),
      created_by: '{}',
    }),
  );
  t.regex(gap!.message, /the next version is 4/);
});

test('a key bound to a sub-tenant reads the rules but cannot change them (403)', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const sub = (
    await readJson(
      await app.request(
        '/api/v1/tenant/sub-tenants',
        postJson({ external_id: 'c1', name: 'C' }, { 'X-Tenant-Key': tenant.keys.sk_test }),
      ),
    )
  ).data;
  const bound = (
    await insertApiKey(app.ownerDb, tenant.tenantId, {
      name: 'bound',
      kind: 'secret',
      environment: 'sandbox',
      scopes: [...TENANT_KEY_SCOPES],
      subTenantId: sub.id,
    })
  ).key;
  t.is((await get(bound)).status, 200);
  await expectRefusal(
    t,
    await post(bound, '', { key: 'custom.x', value: 1, description: 'x', effective_from: '2025-01-01' }),
    403,
    'FORBIDDEN',
  );
  await expectRefusal(
    t,
    await put(bound, 'vat.rounding', { value: { mode: 'per_line' }, effective_from: '2025-01-01' }),
    403,
    'FORBIDDEN',
  );
});

test('a new version with a later effective_from changes the FEC of later periods only', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const key = tenant.keys.sk_test;
  await createInvoice(tenant, { invoice_number: 'F-JAN', issue_date: '2025-01-15' });
  await createInvoice(tenant, { invoice_number: 'F-AUG', issue_date: '2025-08-15' });
  const fec = async (query: string) =>
    (await app.request(`/api/v1/tenant/fiscal/fec?${query}`, { headers: { 'X-Tenant-Key': key } })).text();
  const januaryBefore = await fec('year=2025&month=1');
  const augustBefore = await fec('year=2025&month=8');

  const accounts = (await readJson(await get(key, '/fec.accounts'))).data;
  const res = await put(key, accounts.id, {
    value: { ...ACCOUNTS, revenue: { number: '7061', label: 'Prestations France' } },
    effective_from: '2025-07-01',
  });
  t.is(res.status, 200);
  const journals = (await readJson(await get(key, '/fec.journals'))).data;
  t.is(
    (
      await put(key, journals.id, {
        value: { ...journals.value, sales: { code: 'VE', label: 'Ventes' } },
        effective_from: '2026-01-01',
      })
    ).status,
    200,
  );

  t.is(await fec('year=2025&month=1'), januaryBefore, 'January is unchanged, byte for byte');
  const augustAfter = await fec('year=2025&month=8');
  t.not(augustAfter, augustBefore);
  t.is(augustAfter, augustBefore.replace('\t706\tPrestations de services\t', '\t7061\tPrestations France\t'));
  const year = (await fec('year=2025')).split('\r\n');
  t.true(year.some((l) => l.includes('F-JAN') && l.includes('\t706\t')));
  t.false(year.some((l) => l.includes('F-JAN') && l.includes('\t7061\t')));
  t.true(year.some((l) => l.includes('F-AUG') && l.includes('\t7061\t')));
  t.true(
    year.slice(1, -1).every((l) => l.startsWith('VT\t')),
    'the journal change applies from 2026 only',
  );
});

test('replay: recomputes under the rules of each entry’s date, reports differences, leaves the chain untouched', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const key = tenant.keys.sk_test;
  await createInvoice(tenant, { invoice_number: 'F-1', issue_date: '2025-01-15' });
  // VAT rounded line by line: 3 × 0.06 = 0.18, where 3.15 × 5.5 % rounded once is 0.17.
  await createInvoice(tenant, {
    invoice_number: 'F-2',
    issue_date: '2025-03-01',
    total_ht: 3.15,
    total_tax: 0.18,
    total_ttc: 3.33,
    lines: [1, 2, 3].map((n) => ({ description: `Article ${n}`, quantity: 1, unit_price: 1.05, tax_rate: 5.5 })),
  });
  const chainBefore = await app
    .ownerDb('fiscal_entries')
    .where({ tenant_id: tenant.tenantId })
    .orderBy('sequence_number');

  const res = await post(key, '/replay', { details: true });
  const report = await readJson(res);
  t.is(res.status, 200, JSON.stringify(report));
  t.is(report.entries_replayed, 2);
  t.is(report.chains_replayed, 1);
  t.deepEqual(
    report.rules_applied.map((r: { key: string; version: number; entries: number }) => [r.key, r.version, r.entries]),
    [
      ['fec.accounts', 1, 2],
      ['fec.journals', 1, 2],
      ['vat.rounding', 1, 2],
    ],
  );
  t.is(report.differences_count, 1);
  t.like(report.differences[0], { sequence_number: 2, field: 'total_tax', recorded: '0.18', recomputed: '0.17' });
  t.like(report.differences[0].rule, { key: 'vat.rounding', version: 1, source: 'default' });
  t.is(report.entries.length, 2);
  t.deepEqual(
    report.entries[0].postings.map((p: { account: string; debit: string; credit: string }) => [
      p.account,
      p.debit,
      p.credit,
    ]),
    [
      ['411', '1475.00', '0.00'],
      ['706', '0.00', '1250.00'],
      ['44571', '0.00', '200.00'],
      ['44571', '0.00', '25.00'],
    ],
  );

  // Line-by-line rounding from March 2025: the March invoice now agrees with its rule.
  const rounding = (await readJson(await get(key, '/vat.rounding'))).data;
  await put(key, rounding.id, { value: { mode: 'per_line' }, effective_from: '2025-03-01' });
  const after = await readJson(await post(key, '/replay', { date_from: '2025-01-01', date_to: '2025-12-31' }));
  t.is(after.differences_count, 0);
  t.deepEqual(
    after.rules_applied
      .filter((r: { key: string }) => r.key === 'vat.rounding')
      .map((r: { version: number; entries: number }) => [r.version, r.entries]),
    [
      [1, 1],
      [2, 1],
    ],
  );
  t.is(after.entries, undefined);
  t.is(
    (await readJson(await post(key, '/replay', { date_from: '2025-02-01', date_to: '2025-02-28' }))).entries_replayed,
    0,
  );
  await expectInvalid(t, await post(key, '/replay', { date_from: '2025-03-01', date_to: '2025-02-01' }), 'date_to');

  t.deepEqual(
    await app.ownerDb('fiscal_entries').where({ tenant_id: tenant.tenantId }).orderBy('sequence_number'),
    chainBefore,
  );
  const integrity = await readJson(
    await app.request('/api/v1/tenant/fiscal/integrity', { headers: { 'X-Tenant-Key': key } }),
  );
  t.true(integrity.valid);
  t.is(integrity.entries_checked, 2);
});
