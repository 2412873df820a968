import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { renderFormat } from '../../domain/documents/index.js';
import { findInvoice, toInvoiceDocument } from '../../domain/invoicing/index.js';
import { expectInvalid, expectRefusal } from '../helpers/assertions.js';
import { validateAll } from '../helpers/einvoice-validator.js';
import { postJson, readJson } from '../helpers/http.js';
import { type SeededTenant, seedPlatformTenant, seedSubTenant } from '../helpers/identities.js';
import { BUYER_SIRET, SELLER_SIRET } from '../helpers/invoice-bodies.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Quotes of a sub-tenant: numbering, the buyer's answer through the page's JSON calls, the deposit
 * (386) and balance (380) invoices they become, and the refusals.
 */
let app: TestApp;
test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
});
test.after.always(() => app?.close());

const today = () => new Date().toISOString().slice(0, 10);
const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

const quoteBody = (overrides: Record<string, unknown> = {}) => ({
  issue_date: today(),
  validity_date: inDays(30),
  seller_siret: SELLER_SIRET,
  seller_name: 'Vendeur SAS',
  seller_address: { line1: '1 rue de la Paix', postal_code: '75002', city: 'Paris', country: 'FR' },
  buyer_siret: BUYER_SIRET,
  buyer_name: 'Acheteur SARL',
  buyer_address: { line1: '10 avenue des Champs', postal_code: '69001', city: 'Lyon', country: 'FR' },
  lines: [
    { description: 'Développement', quantity: 20, unit_price: 400, tax_rate: 20 },
    { description: 'Formation', quantity: 4, unit_price: 500, tax_rate: 20 },
  ],
  payment_terms: '30 % à la commande, solde à la livraison.',
  ...overrides,
});

interface Setup {
  tenant: SeededTenant;
  sub: string;
  base: string;
  headers: Record<string, string>;
}

async function setup(): Promise<Setup> {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const sub = await seedSubTenant(app.ownerDb, tenant.tenantId);
  return {
    tenant,
    sub,
    base: `/api/v1/tenant/sub-tenants/${sub}/quotes`,
    headers: { 'X-Tenant-Key': tenant.keys.sk_test },
  };
}

const call = (s: Setup, path: string, method = 'GET', body?: unknown) =>
  app.request(path, body === undefined ? { method, headers: s.headers } : { ...postJson(body, s.headers), method });

async function sentQuote(s: Setup, overrides: Record<string, unknown> = {}) {
  const created = await call(s, s.base, 'POST', quoteBody(overrides));
  const body = await readJson(created);
  if (created.status !== 201) throw new Error(JSON.stringify(body));
  const sent = await readJson(await call(s, `${s.base}/${body.data.id}/send`, 'POST', {}));
  return sent.data;
}

const tokenOf = (publicUrl: string) => publicUrl.slice(publicUrl.lastIndexOf('/') + 1);

async function acceptedQuote(s: Setup) {
  const quote = await sentQuote(s);
  const res = await app.request(`/quote/${tokenOf(quote.public_url)}/accept`, postJson({ signer_name: 'Marie Curie' }));
  if (res.status !== 200) throw new Error(JSON.stringify(await readJson(res)));
  return quote;
}

test('quotes are numbered DEV-YYYY-NNNN per sub-tenant, with their totals and audit chain', async (t) => {
  const s = await setup();
  const other = await seedSubTenant(app.ownerDb, s.tenant.tenantId);
  const year = today().slice(0, 4);
  const first = await readJson(await call(s, s.base, 'POST', quoteBody()));
  t.is(first.data.quote_number, `DEV-${year}-0001`);
  t.is(first.data.status, 'draft');
  t.is(first.data.total_ht, 10_000);
  t.is(first.data.total_tax, 2_000);
  t.is(first.data.total_ttc, 12_000);
  t.is(first.data.public_url, null);
  t.is((await readJson(await call(s, s.base, 'POST', quoteBody()))).data.quote_number, `DEV-${year}-0002`);
  const otherBase = `/api/v1/tenant/sub-tenants/${other}/quotes`;
  t.is((await readJson(await call(s, otherBase, 'POST', quoteBody()))).data.quote_number, `DEV-${year}-0001`);
  // a refused body takes no number
  t.is((await call(s, s.base, 'POST', quoteBody({ seller_siret: '12345678901234' }))).status, 422);
  t.is((await readJson(await call(s, s.base, 'POST', quoteBody()))).data.quote_number, `DEV-${year}-0003`);

  const list = await readJson(await call(s, `${s.base}?per_page=2`));
  t.is(list.meta.total, 3);
  t.is(list.data.length, 2);

  const dup = await readJson(await call(s, `${s.base}/${first.data.id}/duplicate`, 'POST', {}));
  t.is(dup.data.quote_number, `DEV-${year}-0004`);
  t.is(dup.data.duplicated_from, first.data.id);

  await call(s, `${s.base}/${first.data.id}/send`, 'POST', {});
  const log = await readJson(await call(s, `${s.base}/${first.data.id}/audit-log`));
  t.true(log.data.valid);
  t.deepEqual(
    log.data.entries.map((e: { action: string }) => e.action),
    ['quote.created', 'quote.sent'],
  );
  t.is(log.data.entries[1].previousChainHash, log.data.entries[0].chainHash);

  const pdf = await call(s, `${s.base}/${first.data.id}/pdf`);
  t.is(pdf.status, 200);
  t.is(pdf.headers.get('content-type'), 'application/pdf');
  t.is(
    Buffer.from(await pdf.arrayBuffer())
      .subarray(0, 5)
      .toString(),
    '%PDF-',
  );
});

test('10,000.00 HT: a 30 % deposit (386) and the balance (380) add up, reference each other and pass the validator', async (t) => {
  const s = await setup();
  const quote = await acceptedQuote(s);

  // not before acceptance: a draft is refused
  const draft = await readJson(await call(s, s.base, 'POST', quoteBody()));
  await expectRefusal(
    t,
    await call(s, `/api/quotes/${draft.data.id}/convert-to-deposit`, 'POST', { percent: 30 }),
    409,
    'INVALID_STATE',
  );

  const depositRes = await call(s, `/api/quotes/${quote.id}/convert-to-deposit`, 'POST', {
    percent: 30,
    due_date: inDays(10),
  });
  const deposit = await readJson(depositRes);
  t.is(depositRes.status, 201, JSON.stringify(deposit));
  t.is(deposit.data.invoice.total_ht, 3_000);
  t.is(deposit.data.invoice.total_ttc, 3_600);
  t.is(deposit.data.quote.status, 'converted');
  t.is(deposit.data.quote.remaining_ht, 7_000);

  // more than what is left is refused, nothing written
  await expectInvalid(
    t,
    await call(s, `/api/quotes/${quote.id}/convert-to-deposit`, 'POST', { amount: 7_000.01 }),
    'amount',
  );

  const balanceRes = await call(s, `${s.base}/${quote.id}/convert-to-balance`, 'POST', {});
  const balance = await readJson(balanceRes);
  t.is(balanceRes.status, 201, JSON.stringify(balance));
  t.is(balance.data.invoice.total_ht, 7_000);
  t.is(balance.data.invoice.total_ttc, 8_400);
  t.is(deposit.data.invoice.total_ht + balance.data.invoice.total_ht, quote.total_ht);
  t.is(deposit.data.invoice.total_ttc + balance.data.invoice.total_ttc, quote.total_ttc);
  t.deepEqual(balance.data.quote.invoice_ids, [deposit.data.invoice.id, balance.data.invoice.id]);
  t.is(balance.data.quote.remaining_ht, 0);

  // a second balance is refused
  await expectRefusal(t, await call(s, `/api/quotes/${quote.id}/convert-to-balance`, 'POST', {}), 409, 'INVALID_STATE');
  await expectRefusal(
    t,
    await call(s, `/api/quotes/${quote.id}/convert-to-deposit`, 'POST', { percent: 1 }),
    409,
    'INVALID_STATE',
  );

  // ordinary invoices: the sub-tenant's numbers, ledger entries, audit entries, document jobs
  const rows = await app.ownerDb('invoices').whereIn('id', [deposit.data.invoice.id, balance.data.invoice.id]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  t.is(byId.get(deposit.data.invoice.id).type_code, '386');
  t.is(byId.get(balance.data.invoice.id).type_code, '380');
  t.deepEqual(
    byId.get(balance.data.invoice.id).preceding_invoices.map((p: { number: string }) => p.number),
    [deposit.data.invoice.invoice_number],
  );
  t.is(deposit.data.invoice.invoice_number, 'F-000001');
  t.is(balance.data.invoice.invoice_number, 'F-000002');
  t.is(
    Number(
      (
        await app
          .ownerDb('fiscal_entries')
          .whereIn('entity_id', [...byId.keys()])
          .count({ n: '*' })
      )[0].n,
    ),
    2,
  );

  const dir = mkdtempSync(join(tmpdir(), 'quote-facturx-'));
  const files: string[] = [];
  const xml: Record<string, string> = {};
  for (const [name, id] of [
    ['deposit', deposit.data.invoice.id],
    ['balance', balance.data.invoice.id],
  ]) {
    const stored = await findInvoice(app.ownerDb, { tenantId: s.tenant.tenantId }, id);
    const [facturx, cii] = renderFormat(toInvoiceDocument(stored), 'facturx', 'en16931');
    const file = join(dir, `${name}.facturx.pdf`);
    writeFileSync(file, facturx.content);
    files.push(file);
    xml[name] = cii.content.toString('utf8');
  }
  t.regex(xml.deposit, /<ram:TypeCode>386<\/ram:TypeCode>/);
  t.regex(xml.balance, /<ram:TypeCode>380<\/ram:TypeCode>/);
  t.true(
    xml.balance.includes(
      `<ram:InvoiceReferencedDocument><ram:IssuerAssignedID>${deposit.data.invoice.invoice_number}</ram:IssuerAssignedID>`,
    ),
    'the balance references the deposit (BT-25)',
  );
  t.regex(xml.balance, /<ram:GrandTotalAmount>8400.00<\/ram:GrandTotalAmount>/);
  t.regex(xml.balance, /<ram:TotalPrepaidAmount>0.00<\/ram:TotalPrepaidAmount>/);
  t.regex(xml.balance, /<ram:DuePayableAmount>8400.00<\/ram:DuePayableAmount>/);
  const report = validateAll(files);
  t.true(
    report.valid,
    JSON.stringify(
      report.files.map((f) => ({ file: f.file, errors: f.errors })),
      null,
      1,
    ),
  );

  const log = await readJson(await call(s, `${s.base}/${quote.id}/audit-log`));
  t.true(log.data.valid);
  t.deepEqual(
    log.data.entries.map((e: { action: string }) => e.action),
    ['quote.created', 'quote.sent', 'quote.accepted', 'quote.converted', 'quote.converted'],
  );
});

test('bad input is 4xx in the error shape; a foreign quote is 404; an accepted quote cannot be updated', async (t) => {
  const s = await setup();
  await expectInvalid(t, await call(s, s.base, 'POST', quoteBody({ validity_date: '2000-01-01' })), 'validity_date');
  await expectInvalid(t, await call(s, s.base, 'POST', quoteBody({ lines: [] })), 'lines');
  await expectInvalid(
    t,
    await call(s, s.base, 'POST', quoteBody({ callback_url: 'http://example.com/x' })),
    'callback_url',
  );
  const quote = await acceptedQuote(s);

  await expectInvalid(
    t,
    await call(s, `/api/quotes/${quote.id}/convert-to-deposit`, 'POST', { percent: 130 }),
    'percent',
  );
  t.is((await call(s, `/api/quotes/${quote.id}/convert-to-deposit`, 'POST', {})).status, 422);

  const update = await call(s, `${s.base}/${quote.id}`, 'PUT', quoteBody({ notes: 'changed' }));
  await expectRefusal(t, update, 409, 'INVALID_STATE');
  t.is((await readJson(await call(s, `${s.base}/${quote.id}`))).data.notes, null, 'nothing changed');

  // another tenant's key, or another sub-tenant's path: 404
  const stranger = await setup();
  await expectRefusal(t, await call(stranger, `${stranger.base}/${quote.id}`), 404, 'NOT_FOUND');
  await expectRefusal(
    t,
    await call(stranger, `/api/quotes/${quote.id}/convert-to-balance`, 'POST', {}),
    404,
    'NOT_FOUND',
  );
  const sibling = await seedSubTenant(app.ownerDb, s.tenant.tenantId);
  await expectRefusal(t, await call(s, `/api/v1/tenant/sub-tenants/${sibling}/quotes/${quote.id}`), 404, 'NOT_FOUND');

  // a draft can be updated, and cancelled with a reason; then it is locked
  const draft = (await readJson(await call(s, s.base, 'POST', quoteBody()))).data;
  const changed = await readJson(await call(s, `${s.base}/${draft.id}`, 'PUT', quoteBody({ notes: 'v2' })));
  t.is(changed.data.notes, 'v2');
  await expectInvalid(t, await call(s, `${s.base}/${draft.id}/cancel`, 'POST', {}), 'reason');
  const cancelled = await readJson(await call(s, `${s.base}/${draft.id}/cancel`, 'POST', { reason: 'Client parti' }));
  t.is(cancelled.data.status, 'cancelled');
  t.is(cancelled.data.status_reason, 'Client parti');
  await expectRefusal(t, await call(s, `${s.base}/${draft.id}`, 'PUT', quoteBody()), 409, 'INVALID_STATE');
});

test('the public link: refusal recorded, revoked and regenerated links, and the expiry job', async (t) => {
  const s = await setup();
  const quote = await sentQuote(s, { callback_url: 'https://shop.example.com/back' });
  const token = tokenOf(quote.public_url);
  const page = await app.request(`/quote/${token}`);
  t.is(page.status, 200);
  t.regex(page.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
  t.is((await readJson(await call(s, `${s.base}/${quote.id}`))).data.status, 'viewed');

  // cross-site posts are refused
  const forged = await app.request(
    `/quote/${token}/refuse`,
    postJson({}, { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' }),
  );
  t.is(forged.status, 403);

  const refused = await readJson(await app.request(`/quote/${token}/refuse`, postJson({ reason: 'Trop cher' })));
  t.is(refused.status, 'refused');
  t.is(
    refused.redirect_url,
    `https://shop.example.com/back?status=refused&quote_id=${quote.id}&quote_number=${quote.quote_number}&reason=Trop+cher`,
  );
  await expectRefusal(
    t,
    await app.request(`/quote/${token}/accept`, postJson({ signer_name: 'X' })),
    409,
    'INVALID_STATE',
  );

  const other = await sentQuote(s);
  const revoked = await readJson(await call(s, `${s.base}/${other.id}/public-link`, 'DELETE'));
  t.is(revoked.data.public_url, null);
  t.is((await app.request(`/quote/${tokenOf(other.public_url)}`)).status, 404);
  const renewed = await readJson(await call(s, `${s.base}/${other.id}/public-link/regenerate`, 'POST', {}));
  t.not(renewed.data.public_url, null);
  t.not(tokenOf(renewed.data.public_url), tokenOf(other.public_url));
  t.is((await app.request(`/quote/${tokenOf(renewed.data.public_url)}`)).status, 200);

  // the expiry job is queued for the day after the validity date
  const job = await app
    .ownerDb('pgboss.job')
    .where({ name: 'expire-quote' })
    .whereRaw("data->>'quoteId' = ?", [other.id])
    .first();
  t.truthy(job);
  t.is(new Date(job.start_after).toISOString(), `${inDays(31)}T00:00:00.000Z`);
});

test('deposits are spread over the VAT rates; deposits and balance add up at each rate and pass the validator', async (t) => {
  const s = await setup();
  const quote = await sentQuote(s, {
    lines: [
      { description: 'Travaux', quantity: 3, unit_price: 1234.57, tax_rate: 20 },
      { description: 'Livres', quantity: 7, unit_price: 19.99, tax_rate: 5.5 },
      {
        description: 'Formation exonérée',
        quantity: 1,
        unit_price: 300,
        tax_rate: 0,
        vat_category: 'E',
      },
    ],
  });
  await app.request(`/quote/${tokenOf(quote.public_url)}/accept`, postJson({ signer_name: 'Ada Lovelace' }));
  const convert = async (path: string, body: unknown) => {
    const res = await call(s, `/api/quotes/${quote.id}/${path}`, 'POST', body);
    const json = await readJson(res);
    t.is(res.status, 201, JSON.stringify(json));
    return json.data.invoice;
  };
  const first = await convert('convert-to-deposit', { amount: 1000.01, label: 'Acompte à la commande' });
  const second = await convert('convert-to-deposit', { percent: 33.33 });
  const balance = await convert('convert-to-balance', { label: 'Solde' });
  const invoices = [first, second, balance];
  const byRate = (lines: { tax_rate: number; total_ht: number }[]) =>
    lines.reduce<Record<string, number>>((m, l) => {
      m[l.tax_rate] = Math.round(((m[l.tax_rate] ?? 0) + l.total_ht) * 100) / 100;
      return m;
    }, {});
  const invoiced = byRate(invoices.flatMap((i) => i.lines));
  t.deepEqual(invoiced, byRate(quote.lines), 'each VAT rate is invoiced exactly, no more, no less');
  t.is(first.total_ht, 1000.01);
  t.is(second.total_ht, Math.round(quote.total_ht * 33.33) / 100);
  t.is(Math.round(invoices.reduce((sum, i) => sum + i.total_ht, 0) * 100) / 100, quote.total_ht);
  // VAT is rounded per invoice and rate: the invoices' VAT may differ from the quote's by a cent a rate
  t.true(Math.abs(invoices.reduce((sum, i) => sum + i.total_tax, 0) - quote.total_tax) <= 0.02 + 1e-9);

  const dir = mkdtempSync(join(tmpdir(), 'quote-rates-'));
  const files = [];
  for (const invoice of invoices) {
    const stored = await findInvoice(app.ownerDb, { tenantId: s.tenant.tenantId }, invoice.id);
    const [facturx, cii] = renderFormat(toInvoiceDocument(stored), 'facturx', 'en16931');
    const file = join(dir, `${invoice.invoice_number}.facturx.pdf`);
    writeFileSync(file, facturx.content);
    files.push(file);
    if (invoice.id === balance.id) {
      const xml = cii.content.toString();
      // the CII takes one preceding invoice (BT-25); a note names every deposit deducted
      t.true(
        xml.includes(
          `<ram:InvoiceReferencedDocument><ram:IssuerAssignedID>${first.invoice_number}</ram:IssuerAssignedID>`,
        ),
      );
      t.regex(
        xml,
        new RegExp(`Factures d'acompte déduites : ${first.invoice_number} du .*, ${second.invoice_number} du `),
      );
      const ublFile = renderFormat(toInvoiceDocument(stored), 'ubl')[0].content;
      writeFileSync(join(dir, 'balance.ubl.xml'), ublFile);
      files.push(join(dir, 'balance.ubl.xml'));
      const ubl = ublFile.toString();
      for (const deposit of [first, second]) {
        t.true(ubl.includes(`<cac:InvoiceDocumentReference><cbc:ID>${deposit.invoice_number}</cbc:ID>`), 'UBL: all');
      }
    }
  }
  const report = validateAll(files);
  t.true(
    report.valid,
    JSON.stringify(
      report.files.map((f) => ({ file: f.file, errors: f.errors })),
      null,
      1,
    ),
  );
});

test('concurrent creations get consecutive numbers without gaps', async (t) => {
  const s = await setup();
  const results = await Promise.all(Array.from({ length: 12 }, () => call(s, s.base, 'POST', quoteBody())));
  const numbers = (await Promise.all(results.map(readJson))).map((b) => b.data.quote_number).sort();
  const year = today().slice(0, 4);
  t.deepEqual(
    numbers,
    Array.from({ length: 12 }, (_, i) => `DEV-${year}-${String(i + 1).padStart(4, '0')}`),
  );
});
