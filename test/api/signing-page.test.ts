import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import { checkSigningCode, codeHash, MAX_CODE_ATTEMPTS, newSigningCode } from '../../domain/signatures/signing-code.js';
import { sendSigningCode } from '../../workers/handlers/send-signing-code.js';
import { postJson, readJson } from '../helpers/http.js';
import { type SeededTenant, seedPlatformTenant } from '../helpers/identities.js';
import { minimalPdf } from '../helpers/minimal-pdf.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let closed: TestApp;
let tenant: SeededTenant;
let mailLog: string;

test.before(async () => {
  mailLog = path.join(await mkdtemp(path.join(tmpdir(), 'signing-mail-')), 'mail.log');
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0', MAIL_LOG: mailLog } });
  // A server where the simulator is not the signature provider.
  closed = await startTestApp({ env: { RATE_LIMIT_SCALE: '0', ENABLE_SIMULATORS: 'false' } });
  tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  await app.ownerDb('balances').where({ tenant_id: tenant.tenantId }).update({ amount: '100.00' });
});
test.after.always(async () => {
  await app?.close();
  await closed?.close();
});

// biome-ignore lint/suspicious/noExplicitAny: tests read bodies loosely
type Json = any;
const NOW = new Date('2026-11-26T10:00:00Z');
const later = (ms: number) => new Date(NOW.getTime() + ms);

test('a code is checked against its hash, until its deadline, and locked by the fifth wrong attempt', (t) => {
  const fresh = newSigningCode(false, NOW);
  t.regex(fresh.code, /^\d{6}$/);
  t.is(fresh.hash, codeHash(fresh.code));
  t.is(fresh.expiresAt.getTime(), NOW.getTime() + 10 * 60 * 1000);
  t.is(newSigningCode(true, NOW).code, '000000');

  const stored = { otp_hash: fresh.hash, otp_expires_at: fresh.expiresAt, otp_attempts: 0 };
  t.deepEqual(checkSigningCode(stored, fresh.code, later(60_000)), { ok: true });
  const wrong = fresh.code === '123456' ? '654321' : '123456';
  t.deepEqual(checkSigningCode(stored, wrong, later(60_000)), { ok: false, reason: 'wrong', attemptsLeft: 4 });
  t.deepEqual(checkSigningCode({ ...stored, otp_attempts: 4 }, wrong, NOW), {
    ok: false,
    reason: 'wrong',
    attemptsLeft: 0,
  });
  t.deepEqual(checkSigningCode({ ...stored, otp_attempts: MAX_CODE_ATTEMPTS }, fresh.code, NOW), {
    ok: false,
    reason: 'locked',
  });
  t.deepEqual(checkSigningCode(stored, fresh.code, later(10 * 60 * 1000)), { ok: false, reason: 'expired' });
  t.deepEqual(checkSigningCode({ otp_hash: null, otp_expires_at: null, otp_attempts: 0 }, fresh.code, NOW), {
    ok: false,
    reason: 'none',
  });
});

async function createRequest(key: string, route: string, overrides: Record<string, unknown> = {}): Promise<Json> {
  const res = await app.request(
    route,
    postJson(
      {
        title: 'Bon de commande',
        document: minimalPdf().toString('base64'),
        document_name: 'commande.pdf',
        signers: [{ first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com', auth_method: 'email' }],
        ...overrides,
      },
      { 'X-API-Key': key },
    ),
  );
  const json = await readJson(res);
  if (res.status !== 201) throw new Error(`create: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}
const sandboxRequest = (overrides: Record<string, unknown> = {}) =>
  createRequest(tenant.keys.sk_test, '/api/v1/sandbox/signatures', overrides);
const tokenOf = (s: Json, i = 0) => new URL(s.signers[i].signing_url).pathname.split('/')[2];
const call = (token: string, step: string, body: unknown = {}, headers: Record<string, string> = {}) =>
  app.request(`/sign/${token}/${step}`, postJson(body, headers));

test('five wrong codes lock the code: the right one is refused until a new code is asked for', async (t) => {
  const token = tokenOf(await sandboxRequest());
  t.is((await call(token, 'otp')).status, 200);
  for (let left = 4; left >= 0; left--) {
    const res = await call(token, 'otp/verify', { code: '123456' });
    const json = await readJson(res);
    t.is(res.status, 422);
    t.regex(json.errors.code[0], left > 0 ? new RegExp(`${left} attempts? left`) : /locked after 5 attempts/);
  }
  const locked = await call(token, 'otp/verify', { code: '000000' });
  t.is(locked.status, 422);
  t.regex((await readJson(locked)).message, /locked/);
  // Signing needs a verified code.
  t.is((await call(token, 'sign', { typed_name: 'Grace Hopper' })).status, 403);

  t.is((await call(token, 'otp')).status, 200);
  t.is((await call(token, 'otp/verify', { code: '000000' })).status, 200);
  const signed = await call(token, 'sign', { typed_name: 'Grace Hopper' });
  t.is(signed.status, 200);
  t.is((await readJson(signed)).status, 'completed');
  // Answered once: the page's calls now say so.
  t.is((await call(token, 'otp')).status, 422);
});

test('outside the sandbox the code is 6 random digits, mailed, kept only as its hash', async (t) => {
  const request = await createRequest(tenant.keys.sk_live, '/api/v1/signatures', {
    signers: [
      {
        first_name: 'Grace',
        last_name: 'Hopper',
        email: 'grace-live@example.com',
        auth_method: 'email',
        message: 'Votre code : {OTP}',
      },
    ],
  });
  const token = tokenOf(request);
  const sent = await call(token, 'otp');
  t.is(sent.status, 200, JSON.stringify(await readJson(sent.clone())));
  // The worker's job makes the code and mails it, outside the request's transaction.
  t.deepEqual(await sendSigningCode({ tenantId: tenant.tenantId, signerId: request.signers[0].id }, app.deps), {
    signer_id: request.signers[0].id,
    sent: ['email'],
  });
  const mail = (await readFile(mailLog, 'utf8'))
    .split(/^={72}$/m)
    .find((e) => e.includes('To: grace-live@example.com'));
  const code = mail?.match(/Votre code : (\d{6})/)?.[1];
  t.truthy(code);
  const row = await app.ownerDb('signature_signers').where({ id: request.signers[0].id }).first();
  t.is(row.otp_hash.length, 64);
  t.false(JSON.stringify(row).includes(`"${code}"`));
  t.is((await call(token, 'otp/verify', { code: code === '000000' ? '111111' : '000000' })).status, 422);
  t.is((await call(token, 'otp/verify', { code })).status, 200);
  const refused = await call(token, 'refuse', { reason: 'Pas d’accord.' });
  t.is(refused.status, 200);
  t.is((await readJson(refused)).status, 'refused');
});

test('a signer reached by SMS gets the code in the local SMS log', async (t) => {
  const request = await createRequest(tenant.keys.sk_live, '/api/v1/signatures', {
    signers: [{ first_name: 'Alan', last_name: 'Turing', phone: '+33612345678', auth_method: 'sms' }],
  });
  const token = tokenOf(request);
  const sent = await call(token, 'otp');
  t.is(sent.status, 200);
  t.regex((await readJson(sent)).message, /on its way by sms/);
  await sendSigningCode({ tenantId: tenant.tenantId, signerId: request.signers[0].id }, app.deps);
  const log = await readFile(path.join(path.dirname(mailLog), 'sms.log'), 'utf8');
  const entry = log.split(/^={72}$/m).find((e) => e.includes('To: +33612345678') && e.includes('Bon de commande'));
  const code = entry?.match(/is (\d{6})\./)?.[1];
  t.truthy(code, log);
  t.is((await call(token, 'otp/verify', { code })).status, 200);
});

test('without ENABLE_SIMULATORS and no provider, a production request is refused (503, nothing charged); a sandbox one has its page', async (t) => {
  const owner = await seedPlatformTenant(closed.ownerDb, { kyb: 'verified' });
  await closed.ownerDb('balances').where({ tenant_id: owner.tenantId }).update({ amount: '10.00' });
  const create = (key: string, route: string) =>
    closed.request(
      route,
      postJson(
        {
          title: 'Devis',
          document: minimalPdf().toString('base64'),
          document_name: 'devis.pdf',
          signers: [{ first_name: 'Alan', last_name: 'Turing', email: 'alan@example.com', auth_method: 'email' }],
        },
        { 'X-API-Key': key },
      ),
    );
  const production = await create(owner.keys.sk_live, '/api/v1/signatures');
  t.is(production.status, 503);
  t.is((await readJson(production)).code, 'PROVIDER_UNAVAILABLE');
  const balance = await closed.ownerDb('balances').where({ tenant_id: owner.tenantId }).first();
  t.is(Number(balance.amount), 10);
  t.is((await closed.ownerDb('signature_requests').where({ tenant_id: owner.tenantId })).length, 0);
  const sandbox = await create(owner.keys.sk_test, '/api/v1/sandbox/signatures');
  t.is(sandbox.status, 201);
  t.is((await closed.request(`/sign/${tokenOf((await readJson(sandbox)).data)}`)).status, 200);
});

test('the page carries its CSP: frame-ancestors from iframe_ancestors, else none; scripts from files only', async (t) => {
  const plain = await app.request(`/sign/${tokenOf(await sandboxRequest())}`);
  t.is(plain.status, 200);
  const csp = plain.headers.get('content-security-policy') ?? '';
  t.regex(csp, /frame-ancestors 'none'/);
  t.regex(csp, /script-src 'self'(;|$)/);
  t.is(plain.headers.get('x-frame-options'), 'DENY');
  const html = await plain.text();
  t.false(/<script(?![^>]*\bsrc=)[^>]*>/.test(html), 'no inline script');

  const embedded = await app.request(
    `/sign/${tokenOf(await sandboxRequest({ ui_config: { iframe_ancestors: ['https://erp.example.com', 'https://crm.example.com'] } }))}`,
  );
  t.regex(
    embedded.headers.get('content-security-policy') ?? '',
    /frame-ancestors https:\/\/erp\.example\.com https:\/\/crm\.example\.com/,
  );
  t.is(embedded.headers.get('x-frame-options'), null);

  const unknown = await app.request(`/sign/${'A'.repeat(43)}`);
  t.is(unknown.status, 404);
  t.regex(unknown.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
});

test('a call from another site is refused before it reaches the signer', async (t) => {
  const token = tokenOf(await sandboxRequest());
  const res = await call(token, 'otp', {}, { Origin: 'https://evil.example' });
  t.is(res.status, 403);
  const crossSite = await call(token, 'otp', {}, { 'Sec-Fetch-Site': 'cross-site' });
  t.is(crossSite.status, 403);
  t.is((await call(token, 'otp', {}, { Origin: app.url })).status, 200);
});

test('a drawing that is not a canvas PNG, or a kind of signature the request does not take, is a 422', async (t) => {
  const token = tokenOf(await sandboxRequest({ signature_options: { signature_mode: 'drawn' } }));
  await call(token, 'otp');
  t.is((await call(token, 'otp/verify', { code: '000000' })).status, 200);
  const notPng = await call(token, 'sign', {
    drawing: `data:image/png;base64,${Buffer.from('GIF89a').toString('base64')}`,
  });
  t.is(notPng.status, 422);
  t.truthy((await readJson(notPng)).errors.drawing);
  const typed = await call(token, 'sign', { typed_name: 'Grace Hopper' });
  t.is(typed.status, 422);
  t.truthy((await readJson(typed)).errors.typed_name);
});

test('the page of a cancelled or expired request says so, and its calls answer 422', async (t) => {
  const cancelled = await sandboxRequest();
  const res = await app.request(
    `/api/v1/sandbox/signatures/${cancelled.id}/cancel`,
    postJson({}, { 'X-API-Key': tenant.keys.sk_test }),
  );
  t.is(res.status, 200);
  const page = await app.request(`/sign/${tokenOf(cancelled)}`);
  t.is(page.status, 200);
  t.regex(await page.text(), /This request is cancelled/);
  t.is((await call(tokenOf(cancelled), 'otp')).status, 422);

  // Past its deadline, before the expiry job has run.
  const late = await sandboxRequest();
  await app
    .ownerDb('signature_requests')
    .where({ id: late.id })
    .update({ expires_at: new Date(Date.now() - 1000) });
  t.regex(await (await app.request(`/sign/${tokenOf(late)}`)).text(), /This request is expired/);
  const refused = await call(tokenOf(late), 'otp');
  t.is(refused.status, 422);
  t.is((await readJson(refused)).code, 'SIGNATURE_NOT_PENDING');
});

test('the document is served to the page as uploaded, framable by the page only', async (t) => {
  const res = await app.request(`/sign/${tokenOf(await sandboxRequest())}/document`);
  t.is(res.status, 200);
  t.is(res.headers.get('content-type'), 'application/pdf');
  t.is(res.headers.get('x-frame-options'), 'SAMEORIGIN');
  t.regex(res.headers.get('content-security-policy') ?? '', /frame-ancestors 'self'/);
  t.deepEqual(Buffer.from(await res.arrayBuffer()), minimalPdf());
});
