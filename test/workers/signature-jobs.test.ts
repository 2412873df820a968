import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import { expireSignaturesJob } from '../../workers/handlers/expire-signatures.js';
import { sendSignatureReminders } from '../../workers/handlers/send-signature-reminders.js';
import { postJson, readJson } from '../helpers/http.js';
import { seedPlatformTenant } from '../helpers/identities.js';
import { minimalPdf } from '../helpers/minimal-pdf.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let mailLog: string;

test.before(async () => {
  mailLog = path.join(await mkdtemp(path.join(tmpdir(), 'signature-mail-')), 'mail.log');
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0', MAIL_LOG: mailLog } });
});
test.after.always(() => app?.close());

const body = {
  title: 'Bail commercial',
  document: minimalPdf().toString('base64'),
  document_name: 'bail.pdf',
  signers: [
    { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', auth_method: 'email' },
    { first_name: 'Alan', last_name: 'Turing', phone: '+33612345678', auth_method: 'sms' },
  ],
};

test('the reminder job mails each pending signer reached by e-mail, and texts the one reached by phone only, their own signing link', async (t) => {
  const owner = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  await app.ownerDb('balances').where({ tenant_id: owner.tenantId }).update({ amount: '5.00' });
  const headers = { 'X-API-Key': owner.keys.sk_live };
  const created = await readJson(await app.request('/api/v1/signatures', postJson(body, headers)));
  const s = created.data;
  const reminded = await app.request(`/api/v1/signatures/${s.id}/remind`, postJson({}, headers));
  t.is(reminded.status, 200);

  const result = await sendSignatureReminders({ tenantId: owner.tenantId, signatureId: s.id }, app.deps);
  t.deepEqual(result, { signature_id: s.id, mailed: 1, texted: 1, skipped: 0 });
  const mail = await readFile(mailLog, 'utf8');
  t.true(mail.includes('To: ada@example.com'));
  t.true(mail.includes('Bail commercial'));
  t.true(mail.includes(s.signers[0].signing_url));
  t.false(mail.includes(s.signers[1].signing_url));
  const sms = await readFile(path.join(path.dirname(mailLog), 'sms.log'), 'utf8');
  t.true(sms.includes('To: +33612345678'));
  t.true(sms.includes(s.signers[1].signing_url));
  t.false(sms.includes(s.signers[0].signing_url));

  // A request no longer pending sends nothing.
  await app.request(`/api/v1/signatures/${s.id}/cancel`, postJson({}, headers));
  t.like(await sendSignatureReminders({ tenantId: owner.tenantId, signatureId: s.id }, app.deps), { mailed: 0 });
});

test('the expiry job expires what is due and nothing else', async (t) => {
  const owner = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const headers = { 'X-API-Key': owner.keys.sk_test };
  const due = (await readJson(await app.request('/api/v1/signatures', postJson(body, headers)))).data;
  const fresh = (await readJson(await app.request('/api/v1/signatures', postJson(body, headers)))).data;
  await app
    .ownerDb('signature_requests')
    .where({ id: due.id })
    .update({ expires_at: new Date(Date.now() - 1000) });
  t.like(await expireSignaturesJob({}, app.deps), { expired: 1 });
  const rows = await app.ownerDb('signature_requests').whereIn('id', [due.id, fresh.id]).orderBy('created_at');
  t.deepEqual(
    rows.map((r) => r.status),
    ['expired', 'pending'],
  );
  t.like(await expireSignaturesJob({}, app.deps), { expired: 0 });
});
