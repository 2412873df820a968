import test from 'ava';
import { expectRefusal } from '../helpers/assertions.js';
import { checkFec } from '../helpers/fec-checker.js';
import { seedCreditNote, seedPayment } from '../helpers/fec-seed.js';
import { postJson, readJson } from '../helpers/http.js';
import { type SeededTenant, seedPlatformTenant } from '../helpers/identities.js';
import { BUYER_SIRET, invoiceBody } from '../helpers/invoice-bodies.js';
import { randomSiret } from '../helpers/invoices.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
});
test.after.always(() => app?.close());

const SIREN = '732829320'; // seedPlatformTenant's SIRET 73282932000074
const YEAR_2025 = { from: '20250101', to: '20251231' };

const createInvoice = async (tenant: SeededTenant, overrides: Record<string, unknown>) => {
  const res = await app.request(
    '/api/v1/tenant/invoices',
    postJson(invoiceBody(overrides), { 'X-Tenant-Key': tenant.keys.sk_test }),
  );
  const body = await readJson(res);
  if (res.status !== 201) throw new Error(`invoice: ${res.status} ${JSON.stringify(body)}`);
  return body.data;
};

const fec = (tenant: SeededTenant, query: string) =>
  app.request(`/api/v1/tenant/fiscal/fec?${query}`, { headers: { 'X-Tenant-Key': tenant.keys.sk_test } });

const fileNameOf = (res: Response) => /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1];

/** The lines of a FEC as arrays of fields, header excluded. */
const rowsOf = (text: string, sep = '\t') =>
  text
    .split('\r\n')
    .slice(1)
    .filter(Boolean)
    .map((line) => line.split(sep));

/**
 * A year of one sandbox chain, recorded out of date order: three invoices of 2025 (one with rates
 * 20 % and 10 %, one with 5.5 % and 20 %), one of 2024 and one of 2026 that a 2025 FEC leaves out,
 * two credit notes (one with its VAT per rate) and two payments.
 */
async function seedYear(tenant: SeededTenant) {
  const chain = { tenantId: tenant.tenantId, environment: 'sandbox' as const };
  const f1 = await createInvoice(tenant, { invoice_number: 'F-2025-001', issue_date: '2025-01-15' });
  const f2 = await createInvoice(tenant, {
    invoice_number: 'F-2025-002',
    issue_date: '2025-03-10',
    total_ht: 500,
    total_tax: 71,
    total_ttc: 571,
    lines: [
      { description: 'Livres', quantity: 10, unit_price: 20, tax_rate: 5.5 },
      { description: 'Conseil', quantity: 1, unit_price: 300, tax_rate: 20 },
    ],
  });
  await createInvoice(tenant, { invoice_number: 'F-2024-099', issue_date: '2024-12-31' });
  await seedPayment(app.ownerDb, chain, {
    invoice_number: 'F-2025-001',
    payment_date: '2025-02-14',
    amount: '1475.00',
    payment_reference: 'VIR-0001',
  });
  await createInvoice(tenant, {
    invoice_number: 'F-2025-003',
    issue_date: '2025-07-01',
    buyer_siret: randomSiret(),
    buyer_name: 'Client Deux SA',
  });
  await seedCreditNote(app.ownerDb, chain, {
    credit_note_number: 'AV-2025-001',
    invoice_number: 'F-2025-001',
    issue_date: '2025-03-20',
    total_ht: '100.00',
    total_tax: '20.00',
    total_ttc: '120.00',
    vat_breakdown: JSON.stringify([{ rate: '20.00', taxable_amount: '100.00', tax_amount: '20.00' }]),
  });
  await createInvoice(tenant, { invoice_number: 'F-2026-001', issue_date: '2026-01-02' });
  await seedCreditNote(app.ownerDb, chain, {
    credit_note_number: 'AV-2025-002',
    invoice_number: 'F-2025-002',
    issue_date: '2025-08-01',
    total_ht: '50.00',
    total_tax: '5.00',
    total_ttc: '55.00',
  });
  await seedPayment(app.ownerDb, chain, {
    invoice_number: 'F-2025-002',
    payment_date: '2025-03-31',
    amount: '516.00',
    payment_reference: 'VIR-0002',
  });
  return { f1, f2 };
}

test('a seeded year: the independent checker passes, the other years are left out, entries are chronological', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  await seedYear(tenant);
  const res = await fec(tenant, 'year=2025');
  const text = await res.text();
  t.is(res.status, 200, text);
  t.regex(res.headers.get('content-type') ?? '', /^text\/plain/);
  t.regex(res.headers.get('content-disposition') ?? '', /^attachment/);
  t.is(fileNameOf(res), `${SIREN}FEC20251231.txt`);

  const report = checkFec(text, { period: YEAR_2025, fileName: fileNameOf(res), siren: SIREN });
  t.deepEqual(report.errors, []);
  t.is(report.entries, 7); // 3 invoices, 2 credit notes, 2 payments of 2025
  t.false(text.includes('F-2024-099'));
  t.false(text.includes('F-2026-001'));

  const rows = rowsOf(text);
  const byNum = (n: string) => rows.filter((r) => r[2] === n);
  // Chronological: F-2025-001 (15/01), payment (14/02), F-2025-002 (10/03), credit note (20/03), payment (31/03)...
  t.deepEqual(
    [...new Set(rows.map((r) => `${r[2]} ${r[3]} ${r[8]}`))],
    [
      '1 20250115 F-2025-001',
      '2 20250214 VIR-0001',
      '3 20250310 F-2025-002',
      '4 20250320 AV-2025-001',
      '5 20250331 VIR-0002',
      '6 20250701 F-2025-003',
      '7 20250801 AV-2025-002',
    ],
  );
  // The sale: 411 debit TTC with the customer, 706 credit HT, 44571 credit once per rate.
  const pick = (r: string[]) => [r[0], r[4], r[6], r[11], r[12]];
  t.deepEqual(byNum('1').map(pick), [
    ['VT', '411', BUYER_SIRET, '1475,00', '0,00'],
    ['VT', '706', '', '0,00', '1250,00'],
    ['VT', '44571', '', '0,00', '200,00'],
    ['VT', '44571', '', '0,00', '25,00'],
  ]);
  t.deepEqual(byNum('3').map(pick), [
    ['VT', '411', BUYER_SIRET, '571,00', '0,00'],
    ['VT', '706', '', '0,00', '500,00'],
    ['VT', '44571', '', '0,00', '11,00'],
    ['VT', '44571', '', '0,00', '60,00'],
  ]);
  // The payment: BQ, 512 debit / 411 credit.
  t.deepEqual(byNum('2').map(pick), [
    ['BQ', '512', '', '1475,00', '0,00'],
    ['BQ', '411', BUYER_SIRET, '0,00', '1475,00'],
  ]);
  // A credit note reverses its invoice; without a VAT breakdown, one VAT line.
  t.deepEqual(byNum('7').map(pick), [
    ['VT', '411', BUYER_SIRET, '0,00', '55,00'],
    ['VT', '706', '', '50,00', '0,00'],
    ['VT', '44571', '', '5,00', '0,00'],
  ]);
  t.deepEqual(byNum('4').map(pick), [
    ['VT', '411', BUYER_SIRET, '0,00', '120,00'],
    ['VT', '706', '', '100,00', '0,00'],
    ['VT', '44571', '', '20,00', '0,00'],
  ]);
  t.is(byNum('1')[0][8], 'F-2025-001'); // PieceRef = invoice number
  t.is(byNum('1')[0][9], '20250115'); // PieceDate
  t.regex(byNum('1')[0][15], /^\d{8}$/); // ValidDate: the day the ledger recorded it
  t.is(byNum('4')[0][10], 'Avoir AV-2025-001 sur facture F-2025-001 Acheteur SARL');
});

test('a month export: only that month, numbered from 1, named after the month’s last day; pipe format too', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  await seedYear(tenant);
  const res = await fec(tenant, 'year=2025&month=3');
  const text = await res.text();
  t.is(fileNameOf(res), `${SIREN}FEC20250331.txt`);
  const period = { from: '20250301', to: '20250331' };
  t.deepEqual(checkFec(text, { period, fileName: fileNameOf(res) }).errors, []);
  t.deepEqual(
    [...new Set(rowsOf(text).map((r) => `${r[2]} ${r[8]}`))],
    ['1 F-2025-002', '2 AV-2025-001', '3 VIR-0002'],
  );

  const piped = await (await fec(tenant, 'year=2025&month=3&format=pipe')).text();
  t.deepEqual(checkFec(piped, { period, separator: '|' }).errors, []);
  t.is(piped, text.replaceAll('\t', '|'));

  const february = await fec(tenant, 'year=2025&month=2');
  t.is(fileNameOf(february), `${SIREN}FEC20250228.txt`);
  const empty = await (await fec(tenant, 'year=2023')).text();
  t.deepEqual(checkFec(empty, { period: { from: '20230101', to: '20231231' } }).errors, []);
  t.is(rowsOf(empty).length, 0);
});

test('the checker can fail: it catches an unbalanced, a renumbered, a reordered and a malformed file', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  await seedYear(tenant);
  const text = await (await fec(tenant, 'year=2025')).text();
  const lines = text.split('\r\n');
  const edit = (index: number, field: number, value: string) =>
    lines.map((line, i) => (i === index ? line.split('\t').with(field, value).join('\t') : line)).join('\r\n');
  const errorsOf = (content: string, options = {}) => checkFec(content, { period: YEAR_2025, ...options }).errors;

  t.true(errorsOf(edit(1, 11, '1475,01')).some((e) => /EcritureNum 1 is unbalanced/.test(e)));
  t.true(errorsOf(edit(1, 11, '1475,01')).some((e) => /the file is unbalanced/.test(e)));
  const renumbered = lines.map((line) => line.replace(/^(BQ\t[^\t]*\t)2\t/, '$19\t')).join('\r\n');
  t.true(errorsOf(renumbered).some((e) => /not continuous/.test(e)));
  const earlier = lines.map((line) => line.replace(/^(BQ\t[^\t]*\t2\t)20250214\t/, '$120250110\t')).join('\r\n');
  t.true(errorsOf(earlier).some((e) => /EcritureNum 2 comes before the date of 1/.test(e)));
  t.true(errorsOf(edit(1, 11, '1475.00')).some((e) => /decimal comma/.test(e)));
  t.true(errorsOf(edit(1, 11, '1 475,00')).some((e) => /decimal comma/.test(e)));
  t.true(errorsOf(edit(1, 3, '20250230')).some((e) => /EcritureDate 20250230 is not a YYYYMMDD date/.test(e)));
  t.true(errorsOf(edit(1, 3, '20240115')).some((e) => /outside/.test(e)));
  t.true(errorsOf(edit(1, 0, 'XX')).some((e) => /journal XX/.test(e)));
  t.true(errorsOf(edit(0, 1, 'JournalLibelle')).some((e) => /header/.test(e)));
  t.true(errorsOf(lines.map((l, i) => (i === 2 ? `${l}\textra` : l)).join('\r\n')).some((e) => /19 fields/.test(e)));
  t.true(errorsOf(text, { fileName: `${SIREN}FEC20250131.txt` }).some((e) => /closing date/.test(e)));
  t.true(errorsOf(text, { fileName: 'FEC.txt' }).some((e) => /file name/.test(e)));
  t.deepEqual(errorsOf(text), []);
});

test('purchases: an incoming invoice goes to the purchases journal (AC) with the supplier', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const supplier = randomSiret();
  await createInvoice(tenant, {
    direction: 'incoming',
    invoice_number: 'FRN-77',
    issue_date: '2025-05-05',
    seller_siret: supplier,
    seller_name: 'Fournisseur SARL',
  });
  await seedPayment(
    app.ownerDb,
    { tenantId: tenant.tenantId, environment: 'sandbox' },
    {
      direction: 'incoming',
      invoice_number: 'FRN-77',
      payment_date: '2025-05-30',
      amount: '1475.00',
      seller_siret: supplier,
      seller_name: 'Fournisseur SARL',
    },
  );
  const text = await (await fec(tenant, 'year=2025')).text();
  t.deepEqual(checkFec(text, { period: YEAR_2025, journals: ['VT', 'AC', 'BQ'] }).errors, []);
  t.deepEqual(
    rowsOf(text).map((r) => [r[0], r[2], r[4], r[6], r[7], r[11], r[12]]),
    [
      ['AC', '1', '401', supplier, 'Fournisseur SARL', '0,00', '1475,00'],
      ['AC', '1', '607', '', '', '1250,00', '0,00'],
      ['AC', '1', '44566', '', '', '200,00', '0,00'],
      ['AC', '1', '44566', '', '', '25,00', '0,00'],
      ['BQ', '2', '401', supplier, 'Fournisseur SARL', '1475,00', '0,00'],
      ['BQ', '2', '512', '', '', '0,00', '1475,00'],
    ],
  );
});

test('validation: 422 for a year out of range, a month not 1..12, another environment; 404 for a foreign sub-tenant', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  for (const query of ['', 'year=1999', 'year=2101', 'year=abc', 'year=2025&month=0', 'year=2025&month=13']) {
    const res = await fec(tenant, query);
    t.is(res.status, 422, query);
  }
  const month = await readJson(await fec(tenant, 'year=2025&month=13'));
  t.truthy(month.errors.month);
  t.truthy((await readJson(await fec(tenant, 'year=1999'))).errors.year);
  t.is((await fec(tenant, 'year=2025&environment=production')).status, 422);
  t.is((await fec(tenant, 'year=2025&format=csv')).status, 422);

  const other = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const sub = await readJson(
    await app.request(
      '/api/v1/tenant/sub-tenants',
      postJson({ external_id: 'c1', name: 'Client', siret: '44306184100047' }, { 'X-Tenant-Key': other.keys.sk_test }),
    ),
  );
  await expectRefusal(t, await fec(tenant, `year=2025&sub_tenant_id=${sub.data.id}`), 404, 'NOT_FOUND');
  // The owner reads its sub-tenant's chain, named after the sub-tenant's SIREN.
  const own = await fec(other, `year=2025&sub_tenant_id=${sub.data.id}`);
  t.is(own.status, 200);
  t.is(fileNameOf(own), '443061841FEC20251231.txt');
});

test('a period with an entry in another currency is refused with 422 FEC_NOT_EXPORTABLE, naming the entry', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  await createInvoice(tenant, { invoice_number: 'F-USD-1', issue_date: '2025-04-01', currency: 'USD' });
  const res = await fec(tenant, 'year=2025');
  const body = await expectRefusal(t, res, 422, 'FEC_NOT_EXPORTABLE');
  t.is(body.entries[0].sequence_number, 1);
  t.regex(body.entries[0].reason, /USD/);
  t.is((await fec(tenant, 'year=2025&month=3')).status, 200);
});
