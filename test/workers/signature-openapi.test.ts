import test from 'ava';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import { expireSignatures } from '../../domain/signatures/operations/index.js';
import { callbackTokenOf } from '../../domain/signatures/provider/callback-token.js';
import { sealOpenapiSecret } from '../../domain/signatures/provider/openapi-account.js';
import { signingTokenOf } from '../../domain/signatures/signing-token.js';
import * as handlers from '../../workers/handlers/signature-provider.js';
import { postJson, readJson } from '../helpers/http.js';
import type { SeededTenant } from '../helpers/identities.js';
import { minimalPdf } from '../helpers/minimal-pdf.js';
import { nock } from '../helpers/net.js';
import { ESIGN, OAUTH, productionTenant, wrapped } from '../helpers/openapi-signatures.js';
import { queuedJobs } from '../helpers/seed.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Production signature requests through the Openapi EU-SES adapter, nock standing in for
 * https://esignature.openapi.com and https://oauth.openapi.com with the shapes of provider-apis.md §2.
 * The worker handlers are called directly; callbacks go through the real HTTP route.
 */
const BASE_URL = 'https://api.example.test';
let app: TestApp;

// biome-ignore lint/suspicious/noExplicitAny: tests read bodies loosely
type Json = any;

type Handler = (payload: Json, deps: Json) => Promise<Json>;
const submitSignatureJob = handlers.submitSignatureJob as Handler;
const syncSignatureJob = handlers.syncSignatureJob as Handler;
const deleteProviderSignatureJob = handlers.deleteProviderSignatureJob as Handler;
const syncProviderSignaturesJob = handlers.syncProviderSignaturesJob as Handler;

test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0', PUBLIC_BASE_URL: BASE_URL, OPENAPI_TIMEOUT_MS: '2000' } });
  const key = app.deps.config.appKey!;
  await app.ownerDb('signature_provider_config').insert({
    id: 1,
    account_email: 'ops@example.com',
    api_key_sealed: sealOpenapiSecret(key, 'api-key', 'api-key-1'),
    test_mode: false,
  });
});
test.after.always(() => app?.close());
test.afterEach.always(() => nock.cleanAll());

const DOCUMENT = minimalPdf([{ width: 595, height: 842 }]);
const SIGNED = minimalPdf([{ width: 595, height: 842 }]);
const AUDIT = minimalPdf([{ width: 595, height: 842 }]);

async function createRequest(tenant: SeededTenant): Promise<Json> {
  const res = await app.request(
    '/api/v1/signatures',
    postJson(
      {
        title: 'Contrat',
        document: DOCUMENT.toString('base64'),
        document_name: 'contrat.pdf',
        signers: [
          { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', auth_method: 'email' },
          { first_name: 'Alan', last_name: 'Turing', phone: '+33612345678', auth_method: 'sms' },
        ],
        signature_positions: [{ page: 1, x: 10, y: 80, unit: 'percent' }],
      },
      { 'X-API-Key': tenant.keys.sk_live },
    ),
  );
  const json: Json = await readJson(res);
  if (res.status !== 201) throw new Error(`create: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

const providerSigners = (states: [string, string], extra: Record<string, unknown>[] = [{}, {}]) => [
  {
    id: 'ps-1',
    name: 'Ada',
    surname: 'Lovelace',
    email: 'ada@example.com',
    state: states[0],
    url: 'https://sign.openapi.com/s/aaa',
    ...extra[0],
  },
  {
    id: 'ps-2',
    name: 'Alan',
    surname: 'Turing',
    mobile: '+33612345678',
    state: states[1],
    url: 'https://sign.openapi.com/s/bbb',
    ...extra[1],
  },
];
const signatureObject = (id: string, state: string, states: [string, string], extra?: Record<string, unknown>[]) => ({
  id,
  state,
  certificateType: 'EU-SES',
  signatureType: 'pades',
  createdAt: new Date().toISOString(),
  errorNumber: null,
  errorMessage: null,
  signers: providerSigners(states, extra),
});

/** The service's token is minted once (tok-1) with the account's API key as HTTP Basic. */
function mintToken(token: string) {
  return nock(OAUTH)
    .post('/tokens', (body) => Array.isArray(body.scopes) && body.scopes.includes('POST:esignature.openapi.com/EU-SES'))
    .basicAuth({ user: 'ops@example.com', pass: 'api-key-1' })
    .reply(
      200,
      wrapped({
        token,
        scopes: ['POST:esignature.openapi.com/EU-SES', 'GET:esignature.openapi.com/signatures'],
        expireAt: Math.floor(Date.now() / 1000) + 86400 * 365,
      }),
    );
}

async function submitted(tenant: SeededTenant, providerId: string): Promise<Json> {
  const created = await createRequest(tenant);
  await app
    .ownerDb('signature_provider_config')
    .where({ id: 1 })
    .update({ token_sealed: null, token_expires_at: null });
  mintToken('tok-1');
  nock(ESIGN)
    .post('/EU-SES')
    .matchHeader('authorization', 'Bearer tok-1')
    .reply(200, wrapped(signatureObject(providerId, 'WAIT_VALIDATION', ['NEW', 'NEW'])));
  await submitSignatureJob({ tenantId: tenant.tenantId, signatureId: created.id }, app.deps);
  return created;
}

const callback = (query: string, body: string, contentType = 'application/json') =>
  app.request(`/webhooks/openapi/signature${query}`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body,
  });
const eventsOf = async (id: string) =>
  (await app.ownerDb('events').whereRaw("data->>'id' = ?", [id]).orderBy('created_at').orderBy('id')).map(
    (e) => e.name,
  );
const get = async (tenant: SeededTenant, id: string): Promise<Json> =>
  (await readJson(await app.request(`/api/v1/signatures/${id}`, { headers: { 'X-API-Key': tenant.keys.sk_live } })))
    .data;
const syncJobsFor = async (id: string) =>
  (await queuedJobs(app.ownerDb, 'sync-signature')).filter((j) => j.signatureId === id).length;

test.serial(
  'a production request goes to Openapi: handover (401 → one new token), signing links, callbacks, completion with both files copied',
  async (t) => {
    const tenant = await productionTenant(app);
    const created = await createRequest(tenant);
    t.is(created.status, 'pending');
    t.is(created.amount_charged, 1.2);
    t.true(
      created.signers.every((s: Json) => s.signing_url === null),
      'no link before the handover',
    );
    t.is((await queuedJobs(app.ownerDb, 'submit-signature')).filter((j) => j.signatureId === created.id).length, 1);

    // The handover: a stale token is refused once, a new one is minted, the request is sent.
    await app
      .ownerDb('signature_provider_config')
      .where({ id: 1 })
      .update({
        token_sealed: sealOpenapiSecret(app.deps.config.appKey!, 'token', 'tok-stale'),
        token_expires_at: new Date(Date.now() + 86400_000 * 30),
      });
    let sent: Json = null;
    nock(ESIGN)
      .post('/EU-SES')
      .matchHeader('authorization', 'Bearer tok-stale')
      .reply(401, { success: false, message: 'Unauthorized', error: 401 });
    mintToken('tok-2');
    nock(ESIGN)
      .post('/EU-SES', (body) => {
        sent = body;
        return true;
      })
      .matchHeader('authorization', 'Bearer tok-2')
      .reply(200, wrapped(signatureObject('sig-100', 'WAIT_VALIDATION', ['NEW', 'NEW'])));
    const outcome = await submitSignatureJob({ tenantId: tenant.tenantId, signatureId: created.id }, app.deps);
    t.is(outcome.outcome, 'submitted');
    t.true(nock.isDone());
    t.is(Buffer.from(sent.inputDocuments[0].payload, 'base64').compare(DOCUMENT), 0, 'the original PDF is sent');
    t.deepEqual(sent.signers[0].authentication, ['email']);
    t.deepEqual(sent.signers[1].authentication, ['sms']);
    t.is(sent.signers[1].mobile, '+33612345678');
    // 10 % from the left, 80 % from the top of an A4 page, in points from the top-left, as strings.
    t.like(sent.signers[0].signatures[0], { page: 1, x: String(Math.round(59.5)) });
    t.is(sent.callback.url, `${BASE_URL}/webhooks/openapi/signature?t=${callbackTokenOf(app.deps.config, created.id)}`);

    const handed = await get(tenant, created.id);
    t.deepEqual(
      handed.signers.map((s: Json) => s.signing_url),
      ['https://sign.openapi.com/s/aaa', 'https://sign.openapi.com/s/bbb'],
    );
    const stored = await app
      .ownerDb('signature_signers')
      .where({ signature_request_id: created.id })
      .select('provider_url_sealed');
    t.true(
      stored.every((s) => s.provider_url_sealed && !s.provider_url_sealed.includes('openapi.com')),
      'links sealed at rest',
    );
    // The service's own signing page does not serve a request Openapi carries.
    const pageToken = signingTokenOf(app.deps.config, handed.signers[0].id);
    t.is((await app.request(`/sign/${pageToken}`)).status, 404);

    // A forged callback (wrong token, or none) changes nothing and queues nothing.
    const forged = await callback('?t=not-the-token', JSON.stringify({ data: { id: 'sig-100', state: 'DONE' } }));
    t.is(forged.status, 401);
    t.is((await readJson(forged)).code, 'WEBHOOK_SIGNATURE_INVALID');
    t.is((await callback('', JSON.stringify({ data: { id: 'sig-100', state: 'DONE' } }))).status, 401);
    t.is(await syncJobsFor(created.id), 0);

    // The first signer signed: the callback (JSON) queues a sync, which reads the detail again.
    const token = callbackTokenOf(app.deps.config, created.id);
    const first = await callback(
      `?t=${token}`,
      JSON.stringify({ data: { id: 'sig-100', state: 'WAIT_SIGNERS' }, custom: {} }),
    );
    t.is(first.status, 200);
    t.is((await readJson(first)).status, 'processed');
    t.is(await syncJobsFor(created.id), 1);
    nock(ESIGN)
      .get('/signatures/sig-100/detail')
      .reply(200, wrapped(signatureObject('sig-100', 'WAIT_SIGNERS', ['DONE', 'NEW'])));
    t.is(
      (await syncSignatureJob({ tenantId: tenant.tenantId, signatureId: created.id }, app.deps)).outcome,
      'signer 1 signed',
    );
    const partly = await get(tenant, created.id);
    t.is(partly.status, 'pending');
    t.deepEqual(
      partly.signers.map((s: Json) => s.status),
      ['signed', 'pending'],
    );

    // DONE, as a form-encoded callback: the sync copies the signed PDF and the audit trail (the proof).
    const done = await callback(
      `?t=${token}`,
      new URLSearchParams({ data: JSON.stringify({ id: 'sig-100', state: 'DONE' }) }).toString(),
      'application/x-www-form-urlencoded',
    );
    t.is((await readJson(done)).status, 'processed');
    nock(ESIGN)
      .get('/signatures/sig-100/detail')
      .reply(200, wrapped(signatureObject('sig-100', 'DONE', ['DONE', 'DONE'])));
    nock(ESIGN).get('/signatures/sig-100/signedDocument').reply(200, SIGNED, { 'content-type': 'application/pdf' });
    nock(ESIGN)
      .get('/signatures/sig-100/audit')
      .matchHeader('accept', 'application/pdf')
      .reply(200, AUDIT, { 'content-type': 'application/pdf' });
    t.is(
      (await syncSignatureJob({ tenantId: tenant.tenantId, signatureId: created.id }, app.deps)).outcome,
      'completed',
    );
    t.true(nock.isDone());
    const completed = await get(tenant, created.id);
    t.is(completed.status, 'completed');
    const files = await app.ownerDb('signature_documents').where({ signature_request_id: created.id }).orderBy('kind');
    t.deepEqual(
      files.map((f) => f.kind),
      ['original', 'proof', 'signed'],
    );
    t.is(Buffer.compare(files.find((f) => f.kind === 'signed').content, SIGNED), 0);
    t.is(Buffer.compare(files.find((f) => f.kind === 'proof').content, AUDIT), 0);

    // The DONE callback replayed: already processed, no second sync; a sync anyway changes nothing.
    const replay = await callback(
      `?t=${token}`,
      new URLSearchParams({ data: JSON.stringify({ id: 'sig-100', state: 'DONE' }) }).toString(),
      'application/x-www-form-urlencoded',
    );
    t.is((await readJson(replay)).status, 'already_processed');
    t.is(
      (await syncSignatureJob({ tenantId: tenant.tenantId, signatureId: created.id }, app.deps)).outcome,
      'nothing to sync',
    );
    t.deepEqual(await eventsOf(created.id), [
      'signature.created',
      'signature.signed',
      'signature.signed',
      'signature.completed',
    ]);

    // The signed PDF downloads through the API's link.
    const link: Json = await readJson(
      await app.request(`/api/v1/signatures/${created.id}/download/signed`, {
        headers: { 'X-API-Key': tenant.keys.sk_live },
      }),
    );
    const file = await app.request(link.url.slice(BASE_URL.length));
    t.is(file.status, 200);
    t.is(Buffer.compare(Buffer.from(await file.arrayBuffer()), SIGNED), 0);
  },
);

test.serial('a signer refuses at Openapi: the request is refused with the reason, once', async (t) => {
  const tenant = await productionTenant(app);
  const created = await submitted(tenant, 'sig-200');
  const detail = signatureObject('sig-200', 'WAIT_SIGNERS', ['NEW', 'REFUSED'], [{}, { refuseReason: 'Wrong amount' }]);
  nock(ESIGN).get('/signatures/sig-200/detail').reply(200, wrapped(detail));
  t.is((await syncSignatureJob({ tenantId: tenant.tenantId, signatureId: created.id }, app.deps)).outcome, 'refused');
  const refused = await get(tenant, created.id);
  t.is(refused.status, 'refused');
  t.is(refused.refusal_reason, 'Wrong amount');
  t.deepEqual(
    refused.signers.map((s: Json) => s.status),
    ['pending', 'refused'],
  );
  t.is(
    (await syncSignatureJob({ tenantId: tenant.tenantId, signatureId: created.id }, app.deps)).outcome,
    'nothing to sync',
  );
  t.deepEqual(await eventsOf(created.id), ['signature.created', 'signature.refused']);
});

test.serial('a handover whose answer was lost is looked up at the provider, not made twice', async (t) => {
  const tenant = await productionTenant(app);
  const created = await createRequest(tenant);
  await app
    .ownerDb('signature_provider_config')
    .where({ id: 1 })
    .update({ token_sealed: null, token_expires_at: null });
  mintToken('tok-3');
  let posts = 0;
  nock(ESIGN)
    .post('/EU-SES', () => {
      posts++;
      return true;
    })
    .times(3)
    .replyWithError('socket hang up');
  const lost = await t.throwsAsync(
    submitSignatureJob({ tenantId: tenant.tenantId, signatureId: created.id }, app.deps),
  );
  t.is((lost as Json).code, 'PROVIDER_UNAVAILABLE');
  // not sent again within the call: the provider may hold the first one (the fault suite saw two)
  t.is(posts, 1);
  nock.cleanAll();
  const row = await app.ownerDb('signature_requests').where({ id: created.id }).first();
  t.truthy(row.provider_attempted_at);
  t.is(row.provider_id, null);

  // The retry lists the provider's recent requests and recognises its own by the signers: no POST.
  nock(ESIGN)
    .get('/signatures')
    .query(true)
    .reply(
      200,
      wrapped([
        { id: 'sig-other', state: 'WAIT_SIGN', createdAt: new Date().toISOString() },
        { id: 'sig-300', state: 'WAIT_SIGN', createdAt: new Date().toISOString() },
      ]),
    );
  const other = signatureObject('sig-other', 'WAIT_SIGN', ['NEW', 'NEW'], [{ email: 'someone@example.com' }, {}]);
  nock(ESIGN).get('/signatures/sig-other/detail').reply(200, wrapped(other));
  nock(ESIGN)
    .get('/signatures/sig-300/detail')
    .reply(200, wrapped(signatureObject('sig-300', 'WAIT_SIGN', ['NEW', 'NEW'])));
  const outcome = await submitSignatureJob({ tenantId: tenant.tenantId, signatureId: created.id }, app.deps);
  t.is(outcome.outcome, 'submitted');
  t.true(nock.isDone());
  t.is((await app.ownerDb('signature_requests').where({ id: created.id }).first()).provider_id, 'sig-300');
});

test.serial(
  'a refused handover fails the request with the provider reason; cancel and expiry delete the request at Openapi',
  async (t) => {
    const tenant = await productionTenant(app);
    const refusedOne = await createRequest(tenant);
    await app
      .ownerDb('signature_provider_config')
      .where({ id: 1 })
      .update({
        token_sealed: sealOpenapiSecret(app.deps.config.appKey!, 'token', 'tok-ok'),
        token_expires_at: new Date(Date.now() + 86400_000 * 30),
      });
    nock(ESIGN)
      .post('/EU-SES')
      .reply(422, { success: false, message: "array 'signers' is empty", error: 422, data: null });
    const outcome = await submitSignatureJob({ tenantId: tenant.tenantId, signatureId: refusedOne.id }, app.deps);
    t.is(outcome.outcome, 'refused by the provider');
    const row = await app.ownerDb('signature_requests').where({ id: refusedOne.id }).first();
    t.regex(row.provider_error, /signers' is empty/);
    t.is(row.status, 'failed');
    t.regex(row.failure_reason, /^The signature provider refused the request: .*signers' is empty/);

    const cancelled = await submitted(tenant, 'sig-400');
    const res = await app.request(
      `/api/v1/signatures/${cancelled.id}/cancel`,
      postJson({}, { 'X-API-Key': tenant.keys.sk_live }),
    );
    t.is(res.status, 200);
    t.is(
      (await queuedJobs(app.ownerDb, 'delete-provider-signature')).filter((j) => j.signatureId === cancelled.id).length,
      1,
    );
    nock(ESIGN).delete('/signatures/sig-400').reply(200, { message: 'Deleted', data: null });
    t.is(
      (await deleteProviderSignatureJob({ tenantId: tenant.tenantId, signatureId: cancelled.id }, app.deps)).outcome,
      'deleted at the provider',
    );
    t.true(nock.isDone());

    const expiring = await submitted(tenant, 'sig-500');
    await app
      .ownerDb('signature_requests')
      .where({ id: expiring.id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    await execute(expireSignatures, {}, systemCaller(), app.deps);
    t.is(
      (await queuedJobs(app.ownerDb, 'delete-provider-signature')).filter((j) => j.signatureId === expiring.id).length,
      1,
    );
    nock(ESIGN)
      .delete('/signatures/sig-500')
      .reply(404, { success: false, message: 'Signature not found', error: 404 });
    t.is(
      (await deleteProviderSignatureJob({ tenantId: tenant.tenantId, signatureId: expiring.id }, app.deps)).outcome,
      'deleted at the provider',
    );
  },
);

test.serial('the poll queues a sync for a request not heard of for 15 minutes', async (t) => {
  const tenant = await productionTenant(app);
  const quiet = await submitted(tenant, 'sig-600');
  await app
    .ownerDb('signature_requests')
    .where({ id: quiet.id })
    .update({ provider_synced_at: new Date(Date.now() - 16 * 60_000) });
  const before = await syncJobsFor(quiet.id);
  const swept = await syncProviderSignaturesJob({}, app.deps);
  t.true(swept.queued >= 1);
  t.is(await syncJobsFor(quiet.id), before + 1);
});
