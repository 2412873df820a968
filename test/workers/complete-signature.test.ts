import test from 'ava';
import { INLINE_COMPLETION_MAX_BYTES } from '../../domain/signatures/signing-steps.js';
import { completeSignatureJob } from '../../workers/handlers/complete-signature.js';
import { postJson, readJson } from '../helpers/http.js';
import { seedPlatformTenant } from '../helpers/identities.js';
import { minimalPdf } from '../helpers/minimal-pdf.js';
import { queuedJobs } from '../helpers/seed.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
});
test.after.always(() => app?.close());

const sign = async (signingUrl: string) => {
  const token = new URL(signingUrl).pathname.split('/')[2];
  for (const [step, body] of [
    ['otp', {}],
    ['otp/verify', { code: '000000' }],
    ['sign', { typed_name: 'Ada Lovelace' }],
  ] as const) {
    const res = await app.request(`/sign/${token}/${step}`, postJson(body));
    if (res.status !== 200) throw new Error(`${step}: ${res.status} ${JSON.stringify(await readJson(res))}`);
    if (step === 'sign') return readJson(res);
  }
};

test('the last signature of a large document queues complete-signature; the job makes the files and completes it once', async (t) => {
  const owner = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const headers = { 'X-API-Key': owner.keys.sk_test };
  const created = await readJson(
    await app.request(
      '/api/v1/signatures',
      postJson(
        {
          title: 'Bail commercial',
          document: minimalPdf().toString('base64'),
          document_name: 'bail.pdf',
          signers: [{ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', auth_method: 'email' }],
        },
        headers,
      ),
    ),
  );
  const s = created.data;
  // Stands for a document of several megabytes: only the recorded size decides the path.
  await app
    .ownerDb('signature_requests')
    .where({ id: s.id })
    .update({ document_size: INLINE_COMPLETION_MAX_BYTES + 1 });

  const answer = await sign(s.signers[0].signing_url);
  t.is(answer.status, 'pending');
  t.regex(answer.message, /being prepared/);
  t.deepEqual(
    (await queuedJobs(app.ownerDb, 'complete-signature')).filter((j) => j.signatureId === s.id),
    [{ tenantId: owner.tenantId, signatureId: s.id }],
  );

  t.deepEqual(await completeSignatureJob({ tenantId: owner.tenantId, signatureId: s.id }, app.deps), {
    signature_id: s.id,
    status: 'completed',
  });
  const kinds = await app.ownerDb('signature_documents').where({ signature_request_id: s.id }).pluck('kind');
  t.deepEqual(kinds.sort(), ['original', 'proof', 'signed']);
  // A retried job finds the request completed and does nothing more.
  t.like(await completeSignatureJob({ tenantId: owner.tenantId, signatureId: s.id }, app.deps), {
    status: 'completed',
  });
  const events = await app.ownerDb('events').whereRaw("data->>'id' = ?", [s.id]).pluck('name');
  t.is(events.filter((e) => e === 'signature.completed').length, 1);
});
