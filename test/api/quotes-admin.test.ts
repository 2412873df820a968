import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { expireQuote } from '../../domain/quotes/operations/index.js';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import { sendQuoteMail } from '../../workers/handlers/send-quote-mail.js';
import { expectInvalid, expectRefusal } from '../helpers/assertions.js';
import { postJson, readJson } from '../helpers/http.js';
import { type SeededUser, seedPlatformTenant, seedSubTenant, seedUser } from '../helpers/identities.js';
import { BUYER_SIRET, SELLER_SIRET } from '../helpers/invoice-bodies.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The operator's view of every tenant's quotes (spec "Quotes", admin), and the expiry job. One
 * database for the file: the tests run one after the other, each on the quotes it made.
 */
let app: TestApp;
let admin: SeededUser;
let mailLog: string;
test.before(async () => {
  mailLog = join(mkdtempSync(join(tmpdir(), 'quote-mail-')), 'mail.log');
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0', MAIL_LOG: mailLog } });
  admin = await seedUser(app.ownerDb, { admin: true });
});
test.after.always(() => app?.close());

const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
const body = (buyer = 'Acheteur SARL') => ({
  issue_date: inDays(0),
  validity_date: inDays(30),
  seller_siret: SELLER_SIRET,
  seller_name: 'Vendeur SAS',
  seller_address: { line1: '1 rue de la Paix', postal_code: '75002', city: 'Paris' },
  buyer_siret: BUYER_SIRET,
  buyer_name: buyer,
  buyer_address: { line1: '10 avenue des Champs', postal_code: '69001', city: 'Lyon' },
  lines: [{ description: 'Prestation', quantity: 2, unit_price: 250, tax_rate: 20 }],
});

async function tenantWithQuotes(buyer: string) {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const sub = await seedSubTenant(app.ownerDb, tenant.tenantId);
  const headers = { 'X-Tenant-Key': tenant.keys.sk_test };
  const base = `/api/v1/tenant/sub-tenants/${sub}/quotes`;
  const create = async () => (await readJson(await app.request(base, postJson(body(buyer), headers)))).data;
  const send = async (id: string) =>
    (await readJson(await app.request(`${base}/${id}/send`, postJson({}, headers)))).data;
  return { tenant, sub, headers, base, create, send };
}

const adminGet = (path: string, token = admin.token) =>
  app.request(`/api/v1/admin/quotes${path}`, { headers: { Authorization: `Bearer ${token}` } });

test.serial('list with filters, read, stats; a user without the permission gets 403', async (t) => {
  const a = await tenantWithQuotes('Alpha SARL');
  const b = await tenantWithQuotes('Beta, "Bêta" & Cie');
  const a1 = await a.create();
  await a.create();
  const b1 = await b.send((await b.create()).id);
  const tokenB = b1.public_url.slice(b1.public_url.lastIndexOf('/') + 1);
  await app.request(`/quote/${tokenB}/accept`, postJson({ signer_name: 'Jeanne Bêta' }));

  const all = await readJson(await adminGet('?per_page=200'));
  t.true(all.meta.total >= 3);
  t.is(all.meta.per_page, 200);
  const onlyA = await readJson(await adminGet(`?tenant_id=${a.tenant.tenantId}`));
  t.is(onlyA.meta.total, 2);
  t.true(onlyA.data.every((q: { tenant_id: string }) => q.tenant_id === a.tenant.tenantId));
  t.is(onlyA.data[0].tenant_name, 'Platform SAS');
  const accepted = await readJson(await adminGet(`?status=accepted&tenant_id=${b.tenant.tenantId}`));
  t.deepEqual(
    accepted.data.map((q: { quote: { id: string } }) => q.quote.id),
    [b1.id],
  );
  t.is((await readJson(await adminGet(`?q=${encodeURIComponent('Bêta')}&period=today`))).meta.total, 1);
  t.is((await readJson(await adminGet(`?sub_tenant_id=${a.sub}&date_from=${inDays(1)}`))).meta.total, 0);
  await expectInvalid(t, await adminGet('?per_page=201'), 'per_page');
  await expectInvalid(t, await adminGet('?period=decade'), 'period');

  const one = await readJson(await adminGet(`/${a1.id}`));
  t.is(one.data.quote.quote_number, a1.quote_number);
  t.is(one.data.tenant_id, a.tenant.tenantId);
  await expectRefusal(t, await adminGet('/00000000-0000-4000-8000-000000000000'), 404, 'NOT_FOUND');

  const stats = (await readJson(await adminGet('/stats'))).data;
  t.true(stats.total >= 3);
  t.true(stats.by_status.accepted >= 1);
  t.is(typeof stats.acceptance_rate, 'number');

  const user = await seedUser(app.ownerDb);
  await expectRefusal(t, await adminGet('', user.token), 403, 'FORBIDDEN');
  t.is((await app.request('/api/v1/admin/quotes', { headers: a.headers })).status, 401);
});

test.serial('the expiry job expires a quote past its validity date, once', async (t) => {
  const a = await tenantWithQuotes('Gamma SAS');
  const quote = await a.send((await a.create()).id);
  // still valid: nothing happens
  t.deepEqual(await execute(expireQuote, { quote_id: quote.id }, systemCaller(a.tenant.tenantId), app.deps), {
    expired: false,
  });
  await app
    .ownerDb('quotes')
    .where({ id: quote.id })
    .update({ issue_date: inDays(-20), validity_date: inDays(-1) });
  t.deepEqual(await execute(expireQuote, { quote_id: quote.id }, systemCaller(a.tenant.tenantId), app.deps), {
    expired: true,
  });
  t.deepEqual(await execute(expireQuote, { quote_id: quote.id }, systemCaller(a.tenant.tenantId), app.deps), {
    expired: false,
  });
  const read = (await readJson(await app.request(`${a.base}/${quote.id}`, { headers: a.headers }))).data;
  t.is(read.status, 'expired');
  const events = await app.ownerDb('events').where({ tenant_id: a.tenant.tenantId }).pluck('name');
  t.true(events.includes('quote.expired'));
  // the buyer can no longer answer
  const token = quote.public_url.slice(quote.public_url.lastIndexOf('/') + 1);
  await expectRefusal(
    t,
    await app.request(`/quote/${token}/accept`, postJson({ signer_name: 'X' })),
    409,
    'INVALID_STATE',
  );
});

test.serial('the integrity check finds stuck statuses, orphans and broken audit chains', async (t) => {
  const clean = (await readJson(await adminGet('/integrity-check'))).data;
  t.true(clean.quotes_checked >= 4);
  const known = new Set(
    [
      ...clean.orphan_quotes,
      ...clean.inconsistent_conversions,
      ...clean.stuck_statuses,
      ...clean.broken_audit_chains,
    ].map((i: { quote_id: string }) => i.quote_id),
  );
  t.is(known.size, 0, JSON.stringify(clean));
  t.true(clean.valid);

  const a = await tenantWithQuotes('Delta SA');
  const stuck = await a.send((await a.create()).id);
  await app
    .ownerDb('quotes')
    .where({ id: stuck.id })
    .update({ issue_date: inDays(-20), validity_date: inDays(-2) });
  const linkGone = await a.send((await a.create()).id);
  await app
    .ownerDb('quotes')
    .where({ id: linkGone.id })
    .update({ public_link_expires_at: new Date(Date.now() - 1000) });
  const overInvoiced = await a.send((await a.create()).id);
  await app.request(
    `/quote/${overInvoiced.public_url.slice(overInvoiced.public_url.lastIndexOf('/') + 1)}/accept`,
    postJson({ signer_name: 'Paul Delta' }),
  );
  const deposit = await app.request(
    `/api/quotes/${overInvoiced.id}/convert-to-deposit`,
    postJson({ percent: 50 }, a.headers),
  );
  t.is(deposit.status, 201);
  await app
    .ownerDb('quotes')
    .where({ id: overInvoiced.id })
    .update({ total_ht: '100.00', total_tax: '20.00', total_ttc: '120.00' });
  const orphan = await a.create();
  await app
    .ownerDb('quotes')
    .where({ id: orphan.id })
    .update({ status: 'converted', signature: JSON.stringify({ signer_name: 'X' }) });
  const forged = await a.create();
  await app.ownerDb.raw('alter table quote_audit_entries disable trigger quote_audit_no_update_delete');
  try {
    await app
      .ownerDb('quote_audit_entries')
      .where({ quote_id: forged.id })
      .update({ details: JSON.stringify({ quote_number: 'DEV-0000-0000' }) });
  } finally {
    await app.ownerDb.raw('alter table quote_audit_entries enable trigger quote_audit_no_update_delete');
  }

  const report = (await readJson(await adminGet('/integrity-check'))).data;
  t.false(report.valid);
  t.deepEqual(
    report.stuck_statuses.map((i: { quote_id: string }) => i.quote_id).sort(),
    [stuck.id, linkGone.id].sort(),
  );
  t.deepEqual(
    report.inconsistent_conversions.map((i: { quote_id: string }) => i.quote_id),
    [overInvoiced.id],
  );
  t.regex(report.inconsistent_conversions[0].problem, /250\.00 excluding VAT\) exceed the quote \(100\.00\)/);
  t.deepEqual(
    report.orphan_quotes.map((i: { quote_id: string }) => i.quote_id),
    [orphan.id],
  );
  t.deepEqual(
    report.broken_audit_chains.map((i: { quote_id: string }) => i.quote_id),
    [forged.id],
  );
});

/** RFC 4180 fields of a CSV (quoted fields with doubled quotes, CRLF rows). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  return rows;
}

test.serial('the audit export is RFC 4180 CSV in UTF-8 with a BOM', async (t) => {
  const a = await tenantWithQuotes('Epsilon');
  const quote = await a.send((await a.create()).id);
  const token = quote.public_url.slice(quote.public_url.lastIndexOf('/') + 1);
  const reason = '=HYPERLINK("x"), trop cher, « vraiment »';
  await app.request(`/quote/${token}/refuse`, postJson({ reason }));

  const res = await adminGet(`/audit-export?date_from=${inDays(0)}&date_to=${inDays(0)}`);
  t.is(res.status, 200);
  t.regex(res.headers.get('content-type') ?? '', /^text\/csv/);
  const bytes = Buffer.from(await res.arrayBuffer());
  t.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
  const rows = parseCsv(bytes.subarray(3).toString('utf8'));
  t.deepEqual(rows[0], [
    'created_at',
    'tenant_id',
    'quote_id',
    'quote_number',
    'sequence_number',
    'action',
    'actor',
    'actor_ip',
    'details',
    'previous_chain_hash',
    'chain_hash',
  ]);
  t.true(rows.slice(1).every((r) => r.length === 11));
  const refusal = rows.find((r) => r[2] === quote.id && r[5] === 'quote.refused');
  t.truthy(refusal);
  t.is(JSON.parse(refusal![8]).reason, reason, 'the reason survives quoting, accents included');
  t.is(refusal![7], '127.0.0.1');
  // nothing before the day asked for
  const none = await adminGet(`/audit-export?date_to=${inDays(-1)}`);
  t.is(parseCsv((await none.text()).replace(/^\uFEFF/, '')).length, 1);
  await expectInvalid(t, await adminGet(`/audit-export?date_from=${inDays(1)}&date_to=${inDays(0)}`), 'date_to');
});

test.serial('sending a production quote mails its link to the buyer; a sandbox quote is never mailed', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const jobsFor = async (quoteId: string) =>
    (
      await app.ownerDb.raw<{ rows: { data: { tenantId: string; quoteId: string } }[] }>(
        "select data from pgboss.job where name = 'send-quote-mail' and data->>'quoteId' = ?",
        [quoteId],
      )
    ).rows;
  const quoteIn = async (environment: 'sandbox' | 'production') => {
    const sub = await seedSubTenant(app.ownerDb, tenant.tenantId, { environment });
    const headers = { 'X-Tenant-Key': environment === 'production' ? tenant.keys.sk_live : tenant.keys.sk_test };
    const base = `/api/v1/tenant/sub-tenants/${sub}/quotes`;
    const created = await readJson(
      await app.request(base, postJson({ ...body('Zeta SAS'), buyer_email: 'achats@zeta.example' }, headers)),
    );
    if (!created.data) throw new Error(JSON.stringify(created));
    return (await readJson(await app.request(`${base}/${created.data.id}/send`, postJson({}, headers)))).data;
  };
  const sandbox = await quoteIn('sandbox');
  t.deepEqual(await jobsFor(sandbox.id), []);

  const live = await quoteIn('production');
  const [job] = await jobsFor(live.id);
  t.deepEqual(job.data, { tenantId: tenant.tenantId, quoteId: live.id });
  t.deepEqual(await sendQuoteMail(job.data, app.deps), { quote_id: live.id, sent: true });
  const log = readFileSync(mailLog, 'utf8');
  t.true(log.includes('achats@zeta.example'));
  t.true(log.includes(`Devis ${live.quote_number} de Vendeur SAS`));
  t.true(log.includes(live.public_url), 'the mail carries the link');
});
