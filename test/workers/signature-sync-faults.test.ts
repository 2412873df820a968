import test from 'ava';
import * as handlers from '../../workers/handlers/signature-provider.js';
import type { ScriptedHttp } from '../fakes/scripted-http.js';
import type { SeededTenant } from '../helpers/identities.js';
import { minimalPdf } from '../helpers/minimal-pdf.js';
import {
  createProductionRequest,
  productionTenant,
  signatureObject,
  signatureOf,
  startScriptedOpenapiApp,
  wrapped,
} from '../helpers/openapi-signatures.js';
import { queuedJobs } from '../helpers/seed.js';
import type { TestApp } from '../helpers/test-app.js';

/**
 * The sync-signature job when Openapi answers badly (5xx, 429, a timeout, malformed JSON) to the
 * detail or to a file download: the job throws a retryable error and nothing is half-applied; once
 * the provider answers, the request completes once. And a detail in state ERROR fails the request,
 * refunded (docs/decisions/0092). A scripted server on loopback stands in for Openapi (OPENAPI_BASE_URL):
 * its timeouts are real waits. The rest is the real app.
 */
const TIMEOUT_MS = 300;
let app: TestApp;
let openapi: ScriptedHttp;

// biome-ignore lint/suspicious/noExplicitAny: tests read bodies loosely
type Json = any;
type Handler = (payload: Json, deps: Json) => Promise<Json>;
const submitSignatureJob = handlers.submitSignatureJob as Handler;
const syncSignatureJob = handlers.syncSignatureJob as Handler;

const SIGNED = minimalPdf([{ width: 595, height: 842 }]);
const AUDIT = minimalPdf([{ width: 595, height: 842 }]);

let close: () => Promise<void>;
test.before(async () => {
  ({ app, openapi, close } = await startScriptedOpenapiApp({ OPENAPI_TIMEOUT_MS: String(TIMEOUT_MS) }));
});
test.after.always(() => close?.());
test.afterEach.always(() => openapi.clear());

const sync = (tenant: SeededTenant, id: string) =>
  syncSignatureJob({ tenantId: tenant.tenantId, signatureId: id }, app.deps);
const get = (tenant: SeededTenant, id: string): Promise<Json> => signatureOf(app, tenant, id);
const eventNamesOf = async (id: string) =>
  (await app.ownerDb('events').whereRaw("data->>'id' = ?", [id]).orderBy('created_at').orderBy('id')).map(
    (e) => e.name as string,
  );
const filesOf = async (id: string) =>
  (await app.ownerDb('signature_documents').where({ signature_request_id: id }).orderBy('kind')).map(
    (f) => f.kind as string,
  );

/** A request handed over to Openapi as `providerId`. */
async function handedOver(tenant: SeededTenant, providerId: string): Promise<Json> {
  const created = await createProductionRequest(app, tenant);
  openapi.script('POST /EU-SES', { body: wrapped(signatureObject(providerId, 'WAIT_VALIDATION', ['NEW', 'NEW'])) });
  await submitSignatureJob({ tenantId: tenant.tenantId, signatureId: created.id }, app.deps);
  return created;
}

/** What a sync that failed must have left: the request pending, nobody signed, no file, no event. */
async function assertUntouched(t: Json, tenant: SeededTenant, id: string, what: string): Promise<void> {
  const view = await get(tenant, id);
  t.is(view.status, 'pending', `${what}: still pending`);
  t.deepEqual(
    view.signers.map((s: Json) => s.status),
    ['pending', 'pending'],
    `${what}: nobody signed yet`,
  );
  t.deepEqual(await filesOf(id), ['original'], `${what}: no file stored`);
  t.deepEqual(await eventNamesOf(id), ['signature.created'], `${what}: no event`);
}

const DONE = { body: wrapped(signatureObject('sig-sync', 'DONE', ['DONE', 'DONE'])) };
const problem = (status: number) => ({
  status,
  body: { success: false, message: `HTTP ${status}`, error: status, data: null },
});
const late = { delayMs: TIMEOUT_MS * 4, body: DONE.body };
const pdf = (content: Buffer) => ({ body: content, type: 'application/pdf' });
const DETAIL = 'GET /signatures/sig-sync/detail';
const SIGNED_FILE = 'GET /signatures/sig-sync/signedDocument';
const AUDIT_FILE = 'GET /signatures/sig-sync/audit';
const thrice = <T>(answer: T): T[] => [answer, answer, answer];

/** Each fault, as the calls of one sync meet it (the adapter tries a read 3 times on 5xx, 429, timeouts). */
const FAULTS: { name: string; script(): void; message: RegExp }[] = [
  {
    name: 'detail 500',
    script: () => openapi.script(DETAIL, ...thrice(problem(500))),
    message: /Openapi answered 500 to GET \/signatures\/sig-sync\/detail/,
  },
  {
    name: 'detail 429',
    script: () => openapi.script(DETAIL, ...thrice(problem(429))),
    message: /Openapi answered 429/,
  },
  {
    name: 'detail timeout',
    script: () => openapi.script(DETAIL, ...thrice(late)),
    message: /no answer within 300 ms/,
  },
  {
    name: 'detail malformed JSON',
    script: () =>
      openapi.script(DETAIL, { body: '{"data": {"id": "sig-sync", "state": "DO', type: 'application/json' }),
    message: /answer to the signature detail is not JSON/,
  },
  {
    name: 'signed file 503',
    script: () => {
      openapi.script(DETAIL, DONE);
      openapi.script(SIGNED_FILE, ...thrice(problem(503)));
    },
    message: /Openapi answered 503 to GET \/signatures\/sig-sync\/signedDocument/,
  },
  {
    name: 'signed file malformed (JSON, not a PDF)',
    script: () => {
      openapi.script(DETAIL, DONE);
      openapi.script(SIGNED_FILE, { body: '{"data": "JVBERi0', type: 'application/json' });
    },
    message: /answer to the signed document is not a PDF/,
  },
  {
    name: 'signed file cut short',
    script: () => {
      openapi.script(DETAIL, DONE);
      openapi.script(SIGNED_FILE, pdf(SIGNED.subarray(0, Math.floor(SIGNED.length / 2))));
    },
    message: /answer to the signed document is a PDF cut short/,
  },
  {
    name: 'audit trail timeout',
    script: () => {
      openapi.script(DETAIL, DONE);
      openapi.script(SIGNED_FILE, pdf(SIGNED));
      openapi.script(AUDIT_FILE, ...thrice({ ...pdf(AUDIT), delayMs: TIMEOUT_MS * 4 }));
    },
    message: /cannot be reached \(GET \/signatures\/sig-sync\/audit\): no answer within 300 ms/,
  },
];

test.serial(
  'sync-signature under Openapi faults: each throws a retryable error with nothing applied; then the request completes once',
  async (t) => {
    const tenant = await productionTenant(app);
    const request = await handedOver(tenant, 'sig-sync');
    for (const fault of FAULTS) {
      fault.script();
      const err = await t.throwsAsync(sync(tenant, request.id), undefined, fault.name);
      t.like(err, { code: 'PROVIDER_UNAVAILABLE' }, `${fault.name}: the provider is unavailable`);
      t.not((err as Json).extra?.retryable, false, `${fault.name}: retried by the queue`);
      t.regex((err as Error).message, fault.message, fault.name);
      t.deepEqual(openapi.pending(), [], `${fault.name}: every scripted call was made`);
      await assertUntouched(t, tenant, request.id, fault.name);
    }

    // The provider answers again: both signers signed, both files copied, completed once.
    openapi.script(DETAIL, DONE);
    openapi.script(SIGNED_FILE, pdf(SIGNED));
    openapi.script(AUDIT_FILE, pdf(AUDIT));
    t.is((await sync(tenant, request.id)).outcome, 'completed');
    t.deepEqual(openapi.pending(), []);
    const calls = openapi.calls.length;
    // A callback's sync queued meanwhile runs after: nothing to sync, no call to the provider.
    t.is((await sync(tenant, request.id)).outcome, 'nothing to sync');
    t.is(openapi.calls.length, calls);
    const view = await get(tenant, request.id);
    t.is(view.status, 'completed');
    t.deepEqual(await filesOf(request.id), ['original', 'proof', 'signed'], 'each file stored once');
    t.deepEqual(await eventNamesOf(request.id), [
      'signature.created',
      'signature.signed',
      'signature.signed',
      'signature.completed',
    ]);
  },
);

test.serial('a detail in state ERROR fails the request, refunded, and deletes it at Openapi', async (t) => {
  const tenant = await productionTenant(app);
  const request = await handedOver(tenant, 'sig-error');
  t.is((await get(tenant, request.id)).signers[0].signing_url, 'https://sign.openapi.com/s/sig-error-1');
  const error = signatureObject('sig-error', 'ERROR', ['NEW', 'NEW'], {
    errorNumber: 110,
    errorMessage: 'Wrong Certificate Credentials',
  });
  openapi.script('GET /signatures/sig-error/detail', { body: wrapped(error) });
  t.is((await sync(tenant, request.id)).outcome, 'failed');

  const view = await get(tenant, request.id);
  t.is(view.status, 'failed');
  t.is(view.failure_reason, 'The signature provider reported an error: 110 Wrong Certificate Credentials');
  t.true(
    view.signers.every((s: Json) => s.signing_url === null),
    'the provider links are no longer shown',
  );
  const balance = await app.ownerDb('balances').where({ tenant_id: tenant.tenantId }).first('amount');
  t.is(balance.amount, '10.00', 'refunded');
  const refunds = await app
    .ownerDb('balance_transactions')
    .where({ reference_id: request.id, type: 'signature_refunded' });
  t.is(refunds.length, 1);
  t.deepEqual(await eventNamesOf(request.id), ['signature.created', 'signature.failed']);
  const deletions = (await queuedJobs(app.ownerDb, 'delete-provider-signature')).filter(
    (j) => j.signatureId === request.id,
  );
  t.is(deletions.length, 1, 'its signing links stop at Openapi too');
  openapi.script('DELETE /signatures/sig-error', { body: { message: 'Deleted', data: null } });
  const deleted = await (handlers.deleteProviderSignatureJob as Handler)(
    { tenantId: tenant.tenantId, signatureId: request.id },
    app.deps,
  );
  t.is(deleted.outcome, 'deleted at the provider');

  // The ERROR read again (the poll, a callback): nothing to sync, nothing refunded twice.
  t.is((await sync(tenant, request.id)).outcome, 'nothing to sync');
  t.is(
    (await app.ownerDb('balance_transactions').where({ reference_id: request.id, type: 'signature_refunded' })).length,
    1,
  );
});
