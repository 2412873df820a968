import { createHash } from 'node:crypto';
import test from 'ava';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import { expireSignatures } from '../../domain/signatures/operations/index.js';
import { expectInvalid, expectRefusal } from '../helpers/assertions.js';
import { postJson, readJson } from '../helpers/http.js';
import { type SeededTenant, seedPlatformTenant, seedUser, seedUserKey } from '../helpers/identities.js';
import { minimalPdf, PNG_BYTES } from '../helpers/minimal-pdf.js';
import { queuedJobs } from '../helpers/seed.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const BASE_URL = 'https://api.example.test';
let app: TestApp;
let tenant: SeededTenant;

test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0', PUBLIC_BASE_URL: BASE_URL } });
  tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
});
test.after.always(() => app?.close());

// biome-ignore lint/suspicious/noExplicitAny: tests read bodies loosely
type Json = any;
const headersOf = (key: string) => ({ 'X-API-Key': key });
const post = (path: string, body: unknown, key = tenant.keys.sk_test) =>
  app.request(path, postJson(body, headersOf(key)));
const get = (path: string, key = tenant.keys.sk_test) => app.request(path, { headers: headersOf(key) });

/** Download links point at the public URL; the test app serves them on its own port. */
const fetchLink = (url: string) => app.request(url.slice(BASE_URL.length));

const TWO_PAGES = minimalPdf([
  { width: 595, height: 842 },
  { width: 842, height: 595 },
]);
const signer = (n: number, overrides: Record<string, unknown> = {}) => ({
  first_name: `Ada${n}`,
  last_name: 'Lovelace',
  email: `signer${n}@example.com`,
  auth_method: 'email',
  ...overrides,
});
const body = (overrides: Record<string, unknown> = {}) => ({
  title: 'Contrat de prestation',
  description: 'Merci de signer',
  document: TWO_PAGES.toString('base64'),
  document_name: 'contrat.pdf',
  signers: [signer(1), signer(2, { auth_method: 'both', phone: '+33612345678' })],
  ...overrides,
});

const create = async (
  overrides: Record<string, unknown> = {},
  key = tenant.keys.sk_test,
  path = '/api/v1/signatures',
) => {
  const res = await post(path, body(overrides), key);
  const json = await readJson(res);
  if (res.status !== 201) throw new Error(`create: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
};
const setBalance = (tenantId: string, amount: string) =>
  app.ownerDb('balances').where({ tenant_id: tenantId }).update({ amount });
const balanceOf = async (tenantId: string) =>
  (await app.ownerDb('balances').where({ tenant_id: tenantId }).first<{ amount: string }>('amount')).amount;
const eventsOf = async (id: string) =>
  (await app.ownerDb('events').whereRaw("data->>'id' = ?", [id]).orderBy('created_at')).map((e) => e.name);
const trailOf = async (id: string) =>
  (
    await app.ownerDb('audit_entries').where({ entity_type: 'signature', entity_id: id }).orderBy('sequence_number')
  ).map((a) => a.action);

test('a sandbox request is created pending and free, with signing links, its document, audit entry and event', async (t) => {
  const res = await post('/api/v1/sandbox/signatures', body({ external_id: 'deal-42' }));
  const json: Json = await readJson(res);
  t.is(res.status, 201, JSON.stringify(json));
  t.is(json.message, 'Signature request created.');
  const s = json.data;
  t.like(s, {
    external_id: 'deal-42',
    title: 'Contrat de prestation',
    document_name: 'contrat.pdf',
    document_size: TWO_PAGES.length,
    status: 'pending',
    environment: 'sandbox',
    amount_charged: 0,
    completed_at: null,
  });
  const days = (Date.parse(s.expires_at) - Date.now()) / 86_400_000;
  t.true(days > 29.9 && days <= 30, `expires in ${days} days`);
  t.deepEqual(
    s.signers.map((x: Json) => [x.full_name, x.email, x.phone, x.auth_method, x.status, x.signed_at]),
    [
      ['Ada1 Lovelace', 'signer1@example.com', null, 'email', 'pending', null],
      ['Ada2 Lovelace', 'signer2@example.com', '+33612345678', 'both', 'pending', null],
    ],
  );

  // Each signer has its own unguessable token; only its SHA-256 is stored.
  const rows = await app.ownerDb('signature_signers').where({ signature_request_id: s.id }).orderBy('ordinal');
  const tokens = s.signers.map((x: Json) => {
    t.true(x.signing_url.startsWith(`${BASE_URL}/sign/`), x.signing_url);
    const match = /\/sign\/([A-Za-z0-9_-]{43})$/.exec(x.signing_url);
    t.truthy(match, x.signing_url);
    return match![1];
  });
  t.not(tokens[0], tokens[1]);
  t.deepEqual(
    rows.map((r) => r.signing_token_hash),
    tokens.map((tk: string) => createHash('sha256').update(tk).digest('hex')),
  );
  const request = await app.ownerDb('signature_requests').where({ id: s.id }).first();
  t.is(request.page_count, 2);
  t.is(request.document_sha256, createHash('sha256').update(TWO_PAGES).digest('hex'));
  const original = await app.ownerDb('signature_documents').where({ signature_request_id: s.id }).first();
  t.is(original.kind, 'original');
  t.true(Buffer.from(original.content).equals(TWO_PAGES));
  t.deepEqual(await trailOf(s.id), ['signature.created']);
  t.deepEqual(await eventsOf(s.id), ['signature.created']);

  // Reading: by id (sandbox and shared routes), the same signing links.
  const byId = await readJson(await get(`/api/v1/sandbox/signatures/${s.id}`));
  t.deepEqual(byId.data, s);
  const shared = await readJson(await get(`/api/v1/signatures/${s.id}`));
  t.deepEqual(shared.data.signers, s.signers);
});

test('positions get the page size from the PDF; the older ui_config form and options are kept', async (t) => {
  const s = await create({
    signature_positions: [
      { page: 2, x: 10, y: 80 },
      { page: 1, x: 400, y: 700, unit: 'pixel', width: 150, height: 50, page_width_px: 612, page_height_px: 792 },
    ],
    ui_config: { logo_url: 'https://example.com/logo.png', primary_color: '#1A2B3C', company_name: 'ACME' },
    signature_options: { signature_mode: 'drawn', signer_must_read: true, timezone: 'Europe/Paris' },
    redirect_complete_url: 'https://example.com/done',
  });
  const row = await app.ownerDb('signature_requests').where({ id: s.id }).first();
  t.deepEqual(row.positions, [
    { page: 2, x: 10, y: 80, unit: 'percent', width: null, height: null, page_width_px: 842, page_height_px: 595 },
    { page: 1, x: 400, y: 700, unit: 'pixel', width: 150, height: 50, page_width_px: 612, page_height_px: 792 },
  ]);
  t.like(row.ui_config, { primary_color: '#1A2B3C', company_name: 'ACME' });
  t.like(row.signature_options, { signature_mode: 'drawn', timezone: 'Europe/Paris' });
  t.is(row.redirect_complete_url, 'https://example.com/done');
});

test('each invalid field answers 422 naming it', async (t) => {
  const create422 = (overrides: Record<string, unknown>) => post('/api/v1/signatures', body(overrides));
  const eleven = Array.from({ length: 11 }, (_, i) => signer(i + 1));
  await expectInvalid(t, await create422({ signers: eleven }), 'signers');
  await expectInvalid(t, await create422({ signers: [] }), 'signers');
  await expectInvalid(
    t,
    await create422({ ui_config: { sidebar_background_color: 'red' } }),
    'ui_config.sidebar_background_color',
  );
  await expectInvalid(t, await create422({ ui_config: { primary_color: '#12345' } }), 'ui_config.primary_color');
  const png = await expectInvalid(t, await create422({ document: PNG_BYTES.toString('base64') }), 'document');
  t.regex(png.errors.document[0], /PDF/);
  await expectInvalid(t, await create422({ document: 'not base64!' }), 'document');
  await expectInvalid(
    t,
    await create422({ signature_positions: [{ page: 1, x: 5001, y: 10 }] }),
    'signature_positions.0.x',
  );
  await expectInvalid(
    t,
    await create422({ signature_positions: [{ page: 1, x: 1, y: -1 }] }),
    'signature_positions.0.y',
  );
  const page3 = await expectInvalid(
    t,
    await create422({
      signature_positions: [
        { page: 1, x: 1, y: 1 },
        { page: 3, x: 10, y: 10 },
      ],
    }),
    'signature_positions.1.page',
  );
  t.regex(page3.errors['signature_positions.1.page'][0], /2 pages/);
  await expectInvalid(
    t,
    await create422({ signers: [signer(1, { auth_method: 'sms', phone: '0612345678' })] }),
    'signers.0.phone',
  );
  await expectInvalid(
    t,
    await create422({ signers: [signer(1, { auth_method: 'sms', phone: '+3361' })] }),
    'signers.0.phone',
  );
  await expectInvalid(t, await create422({ signers: [signer(1, { auth_method: 'sms' })] }), 'signers.0.phone');
  await expectInvalid(t, await create422({ signers: [signer(1, { email: undefined })] }), 'signers.0.email');
  await expectInvalid(t, await create422({ signers: [signer(1, { message: 'x'.repeat(501) })] }), 'signers.0.message');
  await expectInvalid(t, await create422({ signers: [signer(1, { auth_method: 'fax' })] }), 'signers.0.auth_method');
  await expectInvalid(
    t,
    await create422({
      ui_config: { iframe_ancestors: Array.from({ length: 21 }, (_, i) => `https://a${i}.example.com`) },
    }),
    'ui_config.iframe_ancestors',
  );
  await expectInvalid(
    t,
    await create422({ ui_config: { iframe_ancestors: ['javascript:alert(1)'] } }),
    'ui_config.iframe_ancestors.0',
  );
  await expectInvalid(
    t,
    await create422({ ui_config: { sidebar_logo: 'http://169.254.169.254/x.png' } }),
    'ui_config.sidebar_logo',
  );
  await expectInvalid(t, await create422({ ui_config: { hide_header: 'yes' } }), 'ui_config.hide_header');
  await expectInvalid(t, await create422({ redirect_cancel_url: 'javascript:alert(1)' }), 'redirect_cancel_url');
  await expectInvalid(
    t,
    await create422({ signature_options: { timezone: 'Mars/Olympus' } }),
    'signature_options.timezone',
  );
  await expectInvalid(t, await create422({ expires_at: new Date(Date.now() - 60_000).toISOString() }), 'expires_at');
  await expectInvalid(
    t,
    await create422({ expires_at: new Date(Date.now() + 400 * 86_400_000).toISOString() }),
    'expires_at',
  );
  await expectInvalid(t, await create422({ title: undefined }), 'title');
});

test('a document over 20 MB answers 422 naming it, not 413', async (t) => {
  const big = Buffer.alloc(20 * 1024 * 1024 + 1, 0x20);
  big.write('%PDF-1.7\n');
  const res = await post('/api/v1/signatures', body({ document: big.toString('base64') }));
  const json = await expectInvalid(t, res, 'document');
  t.regex(json.errors.document[0], /at most 20 MB/);
});

test('production: 1.20 EUR is debited with the request; 1.19 EUR answers 402 and writes nothing', async (t) => {
  const owner = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  await setBalance(owner.tenantId, '1.19');
  const short = await post('/api/v1/signatures', body(), owner.keys.sk_live);
  const refusal = await expectRefusal(t, short, 402, 'INSUFFICIENT_BALANCE');
  t.like(refusal, { required: 1.2, balance: 1.19 });
  t.is(await balanceOf(owner.tenantId), '1.19');
  for (const table of [
    'signature_requests',
    'signature_signers',
    'signature_documents',
    'balance_transactions',
    'events',
  ]) {
    t.is((await app.ownerDb(table).where({ tenant_id: owner.tenantId })).length, 0, table);
  }

  await setBalance(owner.tenantId, '2.50');
  const s = await create({}, owner.keys.sk_live);
  t.like(s, { environment: 'production', amount_charged: 1.2, status: 'pending' });
  t.is(await balanceOf(owner.tenantId), '1.30');
  const [movement] = await app.ownerDb('balance_transactions').where({ tenant_id: owner.tenantId });
  t.like(movement, { type: 'signature_created', reference_id: s.id });
  t.is(Number(movement.amount), -1.2);
});

test('cancel: pending only; production and sandbox refusals as specified', async (t) => {
  const s = await create();
  const res = await post(`/api/v1/signatures/${s.id}/cancel`, {});
  const json = await readJson(res);
  t.is(res.status, 200, JSON.stringify(json));
  t.is(json.message, 'Signature request cancelled.');
  t.is(json.data.status, 'cancelled');
  t.deepEqual(await eventsOf(s.id), ['signature.created', 'signature.cancelled']);
  t.deepEqual(await trailOf(s.id), ['signature.created', 'signature.cancelled']);
  await expectRefusal(t, await post(`/api/v1/signatures/${s.id}/cancel`, {}), 409, 'INVALID_STATE');
  await expectRefusal(t, await post(`/api/v1/sandbox/signatures/${s.id}/cancel`, {}), 422, 'SIGNATURE_NOT_PENDING');

  const done = await create();
  await app
    .ownerDb('signature_requests')
    .where({ id: done.id })
    .update({ status: 'completed', completed_at: new Date() });
  await expectRefusal(t, await post(`/api/v1/signatures/${done.id}/cancel`, {}), 400, 'ALREADY_COMPLETED');
  await expectRefusal(t, await post(`/api/v1/sandbox/signatures/${done.id}/cancel`, {}), 422, 'SIGNATURE_NOT_PENDING');
  const sandbox = await create();
  const ok = await post(`/api/v1/sandbox/signatures/${sandbox.id}/cancel`, {});
  t.is(ok.status, 200);
});

test('remind: pending signers once an hour; CANNOT_REMIND, NO_PENDING_SIGNERS, sandbox 422', async (t) => {
  const s = await create();
  const first = await post(`/api/v1/signatures/${s.id}/remind`, {});
  t.deepEqual(await readJson(first), { message: 'Reminder sent to 2 pending signers.', signers_reminded: 2 });
  const again = await expectRefusal(t, await post(`/api/v1/signatures/${s.id}/remind`, {}), 400, 'CANNOT_REMIND');
  t.true(again.retry_after > 3500 && again.retry_after <= 3600);
  t.deepEqual(await trailOf(s.id), ['signature.created', 'signature.reminded']);

  // An hour later, with one signer signed: only the other is reminded.
  await app
    .ownerDb('signature_requests')
    .where({ id: s.id })
    .update({ last_reminded_at: new Date(Date.now() - 3_601_000) });
  const [firstSigner] = s.signers;
  await app
    .ownerDb('signature_signers')
    .where({ id: firstSigner.id })
    .update({ status: 'signed', signed_at: new Date() });
  const later = await readJson(await post(`/api/v1/sandbox/signatures/${s.id}/remind`, {}));
  t.is(later.signers_reminded, 1);

  await app.ownerDb('signature_requests').where({ id: s.id }).update({ last_reminded_at: null });
  await app
    .ownerDb('signature_signers')
    .where({ signature_request_id: s.id })
    .update({ status: 'signed', signed_at: new Date() });
  await expectRefusal(t, await post(`/api/v1/signatures/${s.id}/remind`, {}), 400, 'NO_PENDING_SIGNERS');

  await app.ownerDb('signature_requests').where({ id: s.id }).update({ status: 'completed', completed_at: new Date() });
  await expectRefusal(t, await post(`/api/v1/signatures/${s.id}/remind`, {}), 400, 'CANNOT_REMIND');
  await expectRefusal(t, await post(`/api/v1/sandbox/signatures/${s.id}/remind`, {}), 422, 'SIGNATURE_NOT_PENDING');
  // The sandbox sends nothing.
  t.false((await queuedJobs(app.ownerDb, 'send-signature-reminders')).some((j) => j.signatureId === s.id));
});

test('a production reminder queues the reminder mails', async (t) => {
  const owner = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  await setBalance(owner.tenantId, '5.00');
  const s = await create({}, owner.keys.sk_live);
  const res = await post(`/api/v1/signatures/${s.id}/remind`, {}, owner.keys.sk_live);
  t.is(res.status, 200);
  const jobs = await queuedJobs(app.ownerDb, 'send-signature-reminders');
  t.deepEqual(
    jobs.filter((j) => j.signatureId === s.id),
    [{ tenantId: owner.tenantId, signatureId: s.id }],
  );
});

test('the expiry job moves pending requests past their deadline to expired, with event and audit entry', async (t) => {
  const due = await create();
  const later = await create();
  const cancelled = await create();
  await post(`/api/v1/signatures/${cancelled.id}/cancel`, {});
  const past = new Date(Date.now() - 60_000);
  await app.ownerDb('signature_requests').whereIn('id', [due.id, cancelled.id]).update({ expires_at: past });
  const result = await execute(expireSignatures, {}, systemCaller(), app.deps);
  t.true(result.expired >= 1);
  const statuses = await app.ownerDb('signature_requests').whereIn('id', [due.id, later.id, cancelled.id]);
  const statusOf = (id: string) => statuses.find((r) => r.id === id).status;
  t.is(statusOf(due.id), 'expired');
  t.is(statusOf(later.id), 'pending');
  t.is(statusOf(cancelled.id), 'cancelled');
  t.deepEqual(await eventsOf(due.id), ['signature.created', 'signature.expired']);
  t.deepEqual(await trailOf(due.id), ['signature.created', 'signature.expired']);
  t.is((await readJson(await get(`/api/v1/signatures/${due.id}`))).data.status, 'expired');
  // Run again: nothing left to expire for it.
  await execute(expireSignatures, {}, systemCaller(), app.deps);
  t.deepEqual(await eventsOf(due.id), ['signature.created', 'signature.expired']);
});

test('lists filter by status and environment, paginated', async (t) => {
  const owner = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const a = await create({}, owner.keys.sk_test);
  const b = await create({}, owner.keys.sk_test);
  await post(`/api/v1/signatures/${a.id}/cancel`, {}, owner.keys.sk_test);
  const all = await readJson(await get('/api/v1/signatures', owner.keys.sk_test));
  t.deepEqual(
    all.data.map((s: Json) => s.id),
    [b.id, a.id],
  );
  t.deepEqual(all.meta, { current_page: 1, last_page: 1, per_page: 25, total: 2 });
  const pending = await readJson(await get('/api/v1/sandbox/signatures?status=pending', owner.keys.sk_test));
  t.deepEqual(
    pending.data.map((s: Json) => s.id),
    [b.id],
  );
  const paged = await readJson(await get('/api/v1/signatures?per_page=1&page=2', owner.keys.sk_test));
  t.deepEqual(
    paged.data.map((s: Json) => s.id),
    [a.id],
  );
  t.is(paged.meta.last_page, 2);
  const production = await readJson(await get('/api/v1/signatures?environment=production', owner.keys.sk_test));
  t.is(production.meta.total, 0);
  await expectInvalid(t, await get('/api/v1/signatures?status=draft', owner.keys.sk_test), 'status');
});

test('downloads: a 15-minute link to the original; signed files answer 409 before completion', async (t) => {
  const s = await create();
  const res = await get(`/api/v1/signatures/${s.id}/download/original`);
  const link = await readJson(res);
  t.is(res.status, 200, JSON.stringify(link));
  const minutes = (Date.parse(link.expires_at) - Date.now()) / 60_000;
  t.true(minutes > 14 && minutes <= 15);
  t.true(link.url.startsWith(`${BASE_URL}/api/v1/files/signatures/`), link.url);
  const file = await fetchLink(link.url);
  t.is(file.status, 200);
  t.is(file.headers.get('content-type'), 'application/pdf');
  t.true(Buffer.from(await file.arrayBuffer()).equals(TWO_PAGES));
  const forged = await fetchLink(link.url.replace(/.$/, (c: string) => (c === 'A' ? 'B' : 'A')));
  t.is(forged.status, 403);

  await expectRefusal(t, await get(`/api/v1/signatures/${s.id}/download/signed`), 409, 'SIGNATURE_NOT_COMPLETED');
  await expectRefusal(t, await get(`/api/v1/signatures/${s.id}/download/audit_trail`), 409, 'SIGNATURE_NOT_COMPLETED');
  await expectRefusal(
    t,
    await get(`/api/v1/sandbox/signatures/${s.id}/download/signed_pdf`),
    409,
    'SIGNATURE_NOT_COMPLETED',
  );
  await expectRefusal(
    t,
    await get(`/api/v1/sandbox/signatures/${s.id}/download/proof`),
    409,
    'SIGNATURE_NOT_COMPLETED',
  );
  await expectInvalid(t, await get(`/api/v1/sandbox/signatures/${s.id}/download/xml`), 'type');
  const sandboxOriginal = await get(`/api/v1/sandbox/signatures/${s.id}/download/original`);
  t.is(sandboxOriginal.status, 200);
});

test("another tenant's id, or the other environment's, answers 404", async (t) => {
  const s = await create();
  const other = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  await expectRefusal(t, await get(`/api/v1/signatures/${s.id}`, other.keys.sk_test), 404, 'NOT_FOUND');
  await expectRefusal(t, await post(`/api/v1/signatures/${s.id}/cancel`, {}, other.keys.sk_test), 404, 'NOT_FOUND');
  await expectRefusal(t, await post(`/api/v1/signatures/${s.id}/remind`, {}, other.keys.sk_test), 404, 'NOT_FOUND');
  await expectRefusal(
    t,
    await get(`/api/v1/signatures/${s.id}/download/original`, other.keys.sk_test),
    404,
    'NOT_FOUND',
  );
  await expectRefusal(t, await get(`/api/v1/signatures/${s.id}`, tenant.keys.sk_live), 404, 'NOT_FOUND');
  t.is((await readJson(await get('/api/v1/signatures', other.keys.sk_test))).meta.total, 0);
});

test('scopes and environments: a key without `signatures` is refused; live keys stay off sandbox routes', async (t) => {
  const user = await seedUser(app.ownerDb);
  const invoicesOnly = await seedUserKey(app.ownerDb, user, { scopes: ['invoices'] });
  await expectRefusal(t, await post('/api/v1/signatures', body(), invoicesOnly), 403, 'FORBIDDEN');
  await expectRefusal(t, await get('/api/v1/signatures', invoicesOnly), 403, 'FORBIDDEN');
  const signing = await seedUserKey(app.ownerDb, user, { scopes: ['signatures'] });
  const res = await post('/api/v1/signatures', body(), signing);
  t.is(res.status, 201);
  await expectRefusal(
    t,
    await post('/api/v1/sandbox/signatures', body(), tenant.keys.sk_live),
    403,
    'API_KEY_ENVIRONMENT_MISMATCH',
  );
  // The dashboard token reads its own requests.
  const created = (await readJson(res)).data;
  const dashboard = await app.request(`/api/v1/signatures/${created.id}`, {
    headers: { Authorization: `Bearer ${user.token}` },
  });
  t.is(dashboard.status, 200);
});

test('an Idempotency-Key replays the creation instead of creating and charging twice', async (t) => {
  const owner = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  await setBalance(owner.tenantId, '5.00');
  const send = () =>
    app.request(
      '/api/v1/signatures',
      postJson(body(), { ...headersOf(owner.keys.sk_live), 'Idempotency-Key': 'sig-once' }),
    );
  const first = await readJson(await send());
  const second = await readJson(await send());
  t.is(second.data.id, first.data.id);
  t.is(await balanceOf(owner.tenantId), '3.80');
  t.is((await app.ownerDb('signature_requests').where({ tenant_id: owner.tenantId })).length, 1);
});
