import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import test from 'ava';
import { QUEUES } from '../../domain/shared/queues.js';
import * as handlers from '../../workers/handlers/signature-provider.js';
import type { ScriptedHttp } from '../fakes/scripted-http.js';
import { postJson, readJson } from '../helpers/http.js';
import type { SeededTenant } from '../helpers/identities.js';
import {
  createProductionRequest,
  productionTenant,
  SIGNATURE_DOCUMENT,
  signatureObject,
  signatureOf,
  startScriptedOpenapiApp,
  wrapped,
} from '../helpers/openapi-signatures.js';
import { queuedJobs } from '../helpers/seed.js';
import type { TestApp } from '../helpers/test-app.js';

/**
 * A production request Openapi cannot take ends `failed`, refunded (docs/decisions/0092): a refused
 * handover, a provider unreachable for SIGNATURE_SUBMIT_MAX_ATTEMPTS handovers, a detail in state
 * ERROR. A scripted server on loopback stands in for Openapi (OPENAPI_BASE_URL); the worker handlers are called directly,
 * as the queue would, and everything else is the real app over PostgreSQL.
 */
const MAX_ATTEMPTS = 3;
const TIMEOUT_MS = 300;
let app: TestApp;
let openapi: ScriptedHttp;

// biome-ignore lint/suspicious/noExplicitAny: tests read bodies loosely
type Json = any;
type Handler = (payload: Json, deps: Json) => Promise<Json>;
const submitSignatureJob = handlers.submitSignatureJob as Handler;

let close: () => Promise<void>;
test.before(async () => {
  ({ app, openapi, close } = await startScriptedOpenapiApp({
    OPENAPI_TIMEOUT_MS: String(TIMEOUT_MS),
    SIGNATURE_SUBMIT_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
  }));
});
test.after.always(() => close?.());
test.afterEach.always(() => openapi.clear());

const submit = (tenant: SeededTenant, id: string) =>
  submitSignatureJob({ tenantId: tenant.tenantId, signatureId: id }, app.deps);
const get = (tenant: SeededTenant, id: string): Promise<Json> => signatureOf(app, tenant, id);
const balanceOf = async (tenant: SeededTenant) =>
  (await app.ownerDb('balances').where({ tenant_id: tenant.tenantId }).first('amount')).amount as string;
const eventsOf = async (id: string) =>
  (await app.ownerDb('events').whereRaw("data->>'id' = ?", [id]).orderBy('created_at').orderBy('id')).map((e) => ({
    name: e.name as string,
    data: e.data as Json,
  }));
const refundsOf = (id: string) =>
  app.ownerDb('balance_transactions').where({ reference_id: id, type: 'signature_refunded' }).select('*');
const auditActionsOf = async (id: string) =>
  (await app.ownerDb('audit_entries').where({ entity_id: id }).orderBy('created_at').orderBy('id')).map(
    (e) => e.action as string,
  );
const usageSignatures = async (tenant: SeededTenant) => {
  const res = await app.request('/api/v1/tenant/billing/usage?months=1', {
    headers: { 'X-Tenant-Key': tenant.keys.sk_live },
  });
  return (await readJson(res)).data.months[0].signatures;
};

/** What a failed request must show everywhere: the API, the balance, one event, the audit trail. */
async function assertFailedAndRefunded(
  t: Json,
  tenant: SeededTenant,
  id: string,
  reason: RegExp,
  balanceBefore: string,
): Promise<void> {
  const view = await get(tenant, id);
  t.is(view.status, 'failed');
  t.regex(view.failure_reason, reason);
  t.truthy(view.failed_at);
  t.is(view.amount_charged, 1.2, 'the request keeps what it was charged');
  t.true(
    view.signers.every((s: Json) => s.signing_url === null),
    'nobody can sign a failed request',
  );
  t.is(await balanceOf(tenant), balanceBefore, 'the balance is back to what it was before the request');
  const refunds = await refundsOf(id);
  t.is(refunds.length, 1, 'refunded once');
  t.is(refunds[0].amount, '1.20');
  t.is(refunds[0].reference_type, 'signature');
  const failed = (await eventsOf(id)).filter((e) => e.name === 'signature.failed');
  t.is(failed.length, 1, 'one signature.failed event');
  t.is(failed[0].data.status, 'failed');
  t.regex(failed[0].data.failure_reason, reason);
  t.is((await auditActionsOf(id)).filter((a) => a === 'signature.failed').length, 1);

  const listed = await readJson(
    await app.request('/api/v1/signatures?status=failed', { headers: { 'X-API-Key': tenant.keys.sk_live } }),
  );
  t.true(
    listed.data.some((s: Json) => s.id === id),
    'the list filter accepts failed',
  );
  const cancel = await app.request(
    `/api/v1/signatures/${id}/cancel`,
    postJson({}, { 'X-API-Key': tenant.keys.sk_live }),
  );
  t.is(cancel.status, 409);
  const refusal = await readJson(cancel);
  t.like(refusal, { code: 'INVALID_STATE', error_code: 'INVALID_STATE' });
  t.regex(refusal.message, /failed .*refunded/);
  const remind = await app.request(
    `/api/v1/signatures/${id}/remind`,
    postJson({}, { 'X-API-Key': tenant.keys.sk_live }),
  );
  t.is(remind.status, 400);
  t.like(await readJson(remind), { code: 'CANNOT_REMIND' });
}

test.serial(
  'a refused handover: failed with the reason, refunded once, out of the usage; a second run changes nothing',
  async (t) => {
    const tenant = await productionTenant(app);
    const kept = await createProductionRequest(app, tenant);
    openapi.script('POST /EU-SES', { body: wrapped(signatureObject('sig-kept', 'WAIT_VALIDATION', ['NEW', 'NEW'])) });
    t.is((await submit(tenant, kept.id)).outcome, 'submitted');
    const before = await balanceOf(tenant);
    t.is(before, '8.80');

    const refused = await createProductionRequest(app, tenant);
    t.is(await balanceOf(tenant), '7.60');
    openapi.script('POST /EU-SES', {
      status: 422,
      body: { success: false, message: 'The document is not a valid PDF/A', error: 422, data: null },
    });
    const outcome = await submit(tenant, refused.id);
    t.like(outcome, { status: 'failed', outcome: 'refused by the provider' });
    t.deepEqual(openapi.pending(), []);
    const calls = openapi.calls.length;
    await assertFailedAndRefunded(t, tenant, refused.id, /refused the request: .*not a valid PDF\/A/, before);
    t.deepEqual(await usageSignatures(tenant), { count: 1, unit_price: 1.2, amount: 1.2 }, 'the refunded one is out');

    // The job again (a redelivery): no call to the provider, no second refund or event.
    t.is((await submit(tenant, refused.id)).outcome, 'nothing to submit');
    t.is(openapi.calls.length, calls, 'the provider is not called again');
    await assertFailedAndRefunded(t, tenant, refused.id, /not a valid PDF\/A/, before);
    t.deepEqual(
      (await eventsOf(refused.id)).map((e) => e.name),
      ['signature.created', 'signature.failed'],
    );

    // The MCP tools share the view: get_signature shows the failure.
    const transport = new StreamableHTTPClientTransport(new URL(`${app.url}/mcp/`), {
      requestInit: { headers: { 'X-API-Key': tenant.keys.sk_live } },
    });
    const client = new Client({ name: 'failed-signature-test', version: '1.0.0' });
    await client.connect(transport);
    const result = (await client.callTool({ name: 'get_signature', arguments: { signature_id: refused.id } })) as Json;
    t.falsy(result.isError);
    const tool = JSON.parse(result.content[0].text);
    t.like(tool, { status: 'failed', amount_charged: 1.2 });
    t.regex(tool.failure_reason, /not a valid PDF\/A/);
    t.truthy(tool.failed_at);
    await client.close();
  },
);

test.serial(
  'Openapi unreachable (5xx, a timeout, a malformed answer): pending and retried until the last attempt, then failed and refunded once',
  async (t) => {
    t.true(
      (QUEUES['submit-signature'].create?.retryLimit ?? 0) + 1 >= 21,
      'the queue runs the job at least as often as the setting allows attempts',
    );
    const tenant = await productionTenant(app);
    const request = await createProductionRequest(app, tenant);
    t.is(await balanceOf(tenant), '8.80');
    const rowOf = () => app.ownerDb('signature_requests').where({ id: request.id }).first();

    // 1: a 500 to the creation, made once per job (a retry within the call could make a second one).
    openapi.script('POST /EU-SES', { status: 500, body: { success: false, message: 'Internal error', error: 500 } });
    const first = await t.throwsAsync(submit(tenant, request.id));
    t.like(first, { code: 'PROVIDER_UNAVAILABLE' });
    t.is((await get(tenant, request.id)).status, 'pending', 'pending: the job is retried');
    t.like(await rowOf(), { provider_attempts: 1, status: 'pending' });

    // 2: the look-up of a lost answer finds nothing, then the creation times out.
    openapi.script('GET /signatures', { body: wrapped([]) });
    openapi.script('POST /EU-SES', {
      delayMs: TIMEOUT_MS * 4,
      body: wrapped(signatureObject('sig-late', 'WAIT_VALIDATION', ['NEW', 'NEW'])),
    });
    const second = await t.throwsAsync(submit(tenant, request.id));
    t.regex((second as Error).message, /no answer within 300 ms/);
    t.like(await rowOf(), { provider_attempts: 2, status: 'pending' });
    t.deepEqual(await refundsOf(request.id), [], 'nothing refunded while attempts remain');

    // 3, the last: the look-up answers a body that is not JSON. The request fails; the job stops.
    openapi.script('GET /signatures', { body: '{"data": [', type: 'application/json' });
    const last = await submit(tenant, request.id);
    t.like(last, { status: 'failed', outcome: `failed after ${MAX_ATTEMPTS} attempts` });
    t.like(await rowOf(), { provider_attempts: MAX_ATTEMPTS, provider_id: null });
    await assertFailedAndRefunded(
      t,
      tenant,
      request.id,
      /^The signature provider could not be reached after 3 attempts: Openapi's answer to the signature list is not JSON\.$/,
      '10.00',
    );
    t.deepEqual(await usageSignatures(tenant), { count: 0, unit_price: 1.2, amount: 0 });

    // A late redelivery of the job: nothing is tried, nothing moves.
    const before = openapi.calls.length;
    t.is((await submit(tenant, request.id)).outcome, 'nothing to submit');
    t.is(openapi.calls.length, before);
    t.is((await refundsOf(request.id)).length, 1);
    t.is(await balanceOf(tenant), '10.00');
  },
);

test.serial('a sandbox request is never refunded: it was free', async (t) => {
  const tenant = await productionTenant(app);
  const res = await app.request(
    '/api/v1/sandbox/signatures',
    postJson(
      {
        title: 'Essai',
        document: SIGNATURE_DOCUMENT.toString('base64'),
        document_name: 'essai.pdf',
        signers: [{ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', auth_method: 'email' }],
      },
      { 'X-API-Key': tenant.keys.sk_test },
    ),
  );
  t.is(res.status, 201);
  const sandbox = (await readJson(res)).data;
  t.is(sandbox.amount_charged, 0);
  t.is(sandbox.failure_reason, null);
  t.is(sandbox.failed_at, null);
  t.is((await queuedJobs(app.ownerDb, 'submit-signature')).filter((j) => j.signatureId === sandbox.id).length, 0);
});
