import test from 'ava';
import { type FakeOpenapi, type OpenapiFault, type SignatureRead, startFakeOpenapi } from './fake-openapi.js';
import { type FakeStripe, type StripeFault, startFakeStripe } from './fake-stripe.js';
import { type FakeSuperPdp, type SuperPdpFault, startFakeSuperPdp } from './fake-superpdp.js';
import { createInvoices, faultTenant, type Harness, request, startHarness, until } from './harness.js';
import { balancesMatch, type Figures, ledgerValid, printFigures } from './invariants.js';
import { balanceOf, gapsOf, refundsOf, signatureRows, topUpRows, transmissionRows } from './provider-reads.js';
import {
  configureOpenapiAccount,
  connectSuperPdp,
  createSignatureRequests,
  documentsReady,
  sendStripeWebhook,
  stripeEvent,
  submit,
} from './provider-setup.js';

/**
 * Provider faults (test/faults/README.md): the third parties the service calls over HTTP, faked on
 * loopback and pointed to by the service's own settings, answer 5xx, 429, slowly, malformed or cut
 * the connection. Afterwards each effect happened once at the provider, retries followed the
 * schedules, what could not be done is reported where the user reads it, and nothing is half-written.
 */
let h: Harness;
let superpdp: FakeSuperPdp;
let stripe: FakeStripe;
let openapi: FakeOpenapi;
const figures: Figures[] = [];

/** Upload faults per invoice (by its id, the upload's `external_id`), filled once the invoices exist. */
const uploadFaults = new Map<string, SuperPdpFault[]>();
/** The token endpoint: one 503, then an answer cut short; the event list: a 503, then HTML, then fine. */
const TOKEN_FAULTS: SuperPdpFault[] = ['503', 'truncated'];
const EVENT_FAULTS: SuperPdpFault[] = ['503', 'html'];
/** Checkout Session calls per top-up, in order (the adapter tries each call three times). */
const TOP_UP_FAULTS: StripeFault[][] = [
  ['500', '500', '500'],
  ['429', '429', '429'],
  ['slow', 'slow', 'slow'],
  ['html', 'html', 'html'],
  ['truncated', 'truncated', 'truncated'],
  ['reset', 'reset', 'reset'],
  ['500', 'truncated', 'ok'],
  ['429', 'reset', 'ok'],
  ['slow', 'ok'],
];
/**
 * `POST /EU-SES` per signature request, in order: made once per job, the job again 30-60 s later. A
 * refusal fails the request at once; the lasting 500 fails it after SIGNATURE_MAX_ATTEMPTS jobs. Both
 * are refunded (docs/decisions/0092).
 */
const SIGNATURE_FAULTS: OpenapiFault[][] = [
  ['500'],
  ['429'],
  ['slow'],
  ['html'],
  ['truncated'],
  ['reset'],
  ['refuse'],
  Array(12).fill('500'),
];
/**
 * The sync of requests handed over, once Openapi ends them: the faults the reads meet, per request,
 * in order (the adapter tries a read 3 times on 5xx, 429, a timeout or a reset; a malformed answer at
 * once), so each request's first sync job fails and its retry, 30 s on, succeeds. The last one
 * ends in ERROR: failed and refunded.
 */
const SYNC_FAULTS: { end: 'DONE' | 'ERROR'; faults: Partial<Record<SignatureRead, OpenapiFault[]>> }[] = [
  { end: 'DONE', faults: { detail: ['500', '500', '500'] } },
  { end: 'DONE', faults: { detail: ['429', '429', '429'] } },
  { end: 'DONE', faults: { detail: ['slow', 'slow', 'slow'] } },
  { end: 'DONE', faults: { detail: ['truncated'] } },
  { end: 'DONE', faults: { detail: ['html'] } },
  { end: 'DONE', faults: { signed: ['html'] } },
  { end: 'DONE', faults: { signed: ['truncated'] } },
  { end: 'DONE', faults: { audit: ['reset', 'reset', 'reset'] } },
  { end: 'ERROR', faults: { detail: ['500', '500', '500'] } },
];
/** The sync faults of each request by its id at the provider, once handed over. */
const syncPlans = new Map<string, (typeof SYNC_FAULTS)[number]>();
/** The first token mint meets a 500 (retried within the call). */
const OPENAPI_TOKEN_FAULTS: OpenapiFault[] = ['500'];
const signatureKeys: string[] = [];
const STRIPE_WHSEC = 'whsec_fault_suite';
const SUPERPDP_TIMEOUT_MS = 1000;
const STRIPE_TIMEOUT_MS = 500;
const OPENAPI_TIMEOUT_MS = 1000;
const MAX_ATTEMPTS = 3;
/** Handovers of a signature request while Openapi is unreachable: the second job (30 s on) is the last. */
const SIGNATURE_MAX_ATTEMPTS = 2;

test.before(async () => {
  superpdp = await startFakeSuperPdp(
    {
      upload: (externalId, n) => uploadFaults.get(externalId)?.[n] ?? 'ok',
      token: (n) => TOKEN_FAULTS[n] ?? 'ok',
      events: (n) => EVENT_FAULTS[n] ?? 'ok',
    },
    SUPERPDP_TIMEOUT_MS * 2.5,
  );
  stripe = await startFakeStripe((key, n) => TOP_UP_FAULTS[key]?.[n] ?? 'ok', STRIPE_TIMEOUT_MS * 3);
  openapi = await startFakeOpenapi(
    (key, n) => SIGNATURE_FAULTS[signatureKeys.indexOf(key)]?.[n] ?? 'ok',
    (n) => OPENAPI_TOKEN_FAULTS[n] ?? 'ok',
    OPENAPI_TIMEOUT_MS * 2.5,
    (route, id, n) => syncPlans.get(id)?.faults[route]?.[n] ?? 'ok',
  );
  h = await startHarness({
    OPENAPI_BASE_URL: openapi.url,
    OPENAPI_TIMEOUT_MS: String(OPENAPI_TIMEOUT_MS),
    SUPERPDP_BASE_URL: superpdp.url,
    SUPERPDP_TIMEOUT_MS: String(SUPERPDP_TIMEOUT_MS),
    // a lasting fault fails the invoice after 3 attempts (5-10 s, then 10-20 s), not 12 (about 2 h)
    TRANSMISSION_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
    // a lasting Openapi fault fails the request at its second handover (30-60 s), not its 12th (about 5 h)
    SIGNATURE_SUBMIT_MAX_ATTEMPTS: String(SIGNATURE_MAX_ATTEMPTS),
    STRIPE_SECRET_KEY: 'sk_test_fault_suite',
    STRIPE_API_BASE: stripe.url,
    STRIPE_WEBHOOK_SECRET: STRIPE_WHSEC,
    STRIPE_TIMEOUT_MS: String(STRIPE_TIMEOUT_MS),
  });
});

test.after.always(async () => {
  for (const f of figures) printFigures(f);
  await h?.close();
  await superpdp?.close();
  await stripe?.close();
  await openapi?.close();
});

/** The first attempt of each invoice meets one fault, then the provider answers; the last two never do. */
const TRANSMISSION_FAULTS: SuperPdpFault[][] = [
  ['503'],
  ['429'],
  ['slow'],
  ['html'],
  ['truncated'],
  ['reset'],
  Array(MAX_ATTEMPTS + 2).fill('503'),
  Array(MAX_ATTEMPTS + 2).fill('html'),
];

test.serial(
  'SuperPDP answering 503, 429, slowly, HTML, cut short or reset: each invoice uploaded once, the lasting faults reported',
  async (t) => {
    const startedAt = Date.now();
    const tenant = await faultTenant(h);
    await connectSuperPdp(h, tenant);
    const creations = await createInvoices(h, [tenant], TRANSMISSION_FAULTS.length, 'PDP');
    t.true(
      creations.every((c) => c.id),
      'every creation acknowledged',
    );
    creations.forEach((c, i) => {
      uploadFaults.set(c.id as string, TRANSMISSION_FAULTS[i]);
    });
    await documentsReady(h, creations);
    const ids = await submit(h, creations);
    const recovering = ids.slice(0, 6);
    const lasting = ids.slice(6);
    const rows = await until(
      'every invoice transmitted or failed, with its lifecycle events',
      async () => {
        const list = await transmissionRows(h, ids);
        const settled = list.every((r) =>
          recovering.includes(r.id) ? r.status === 'transmitted' && r.lifecycle.length === 2 : r.status === 'failed',
        );
        return settled ? list : null;
      },
      240_000,
    ).catch(async () => transmissionRows(h, ids));
    const byId = new Map(rows.map((r) => [r.id, r]));

    // the one-upload rule: the fake holds one invoice per external id, whatever answer was lost
    const doubled = ids.filter((id) => (superpdp.accepted.get(id)?.length ?? 0) > 1);
    t.deepEqual(doubled, [], 'no invoice uploaded twice');
    for (const id of recovering) {
      const row = byId.get(id)!;
      t.is(superpdp.accepted.get(id)?.length, 1, `${id}: uploaded once`);
      t.is(row.pdp_id, String(superpdp.accepted.get(id)?.[0]), `${id}: recorded with the provider's id`);
      t.is(row.status, 'transmitted', `${id}: transmitted (fr:200 read by the event sync)`);
      t.deepEqual(row.lifecycle, ['api:uploaded', 'fr:200'], `${id}: each lifecycle event stored once`);
    }
    // a lasting fault: failed after the attempts, with the reason the API shows
    for (const [n, id] of lasting.entries()) {
      t.is(superpdp.accepted.get(id), undefined, 'a lasting fault uploads nothing');
      // each attempt is one upload call, or a token call that met the token endpoint's fault
      t.is(byId.get(id)?.transmission_attempts, MAX_ATTEMPTS, `${id}: ${MAX_ATTEMPTS} attempts counted`);
      t.true((superpdp.uploadCalls.get(id)?.length ?? 0) >= MAX_ATTEMPTS - TOKEN_FAULTS.length);
      const res = await request(h, 'GET', `/api/v1/invoices/${id}`, tenant.liveKey);
      const invoice = res.body?.data as { status?: string; status_message?: string } | undefined;
      t.is(invoice?.status, 'failed');
      t.regex(invoice?.status_message ?? '', /could not be reached after 3 attempts/);
      t.regex(invoice?.status_message ?? '', n === 0 ? /SuperPDP answered 503/ : /is not JSON/);
    }
    // retries on the queue's schedule: 5 s doubling, so never sooner than 5 s after a failed call
    const gaps = gapsOf(superpdp.uploadTimes);
    t.true(gaps.length >= 4, 'failed uploads were tried again');
    t.true(Math.min(...gaps) >= 4.5, `retry gaps ${gaps.map((g) => g.toFixed(1)).join(', ')} s`);
    t.true(superpdp.eventCalls.length > EVENT_FAULTS.length, 'the event sync went on after its faults');
    const cursor = await h.db('provider_connections').where({ tenant_id: tenant.tenantId }).first('events_cursor');
    const found = rows.filter((r) =>
      recovering.includes(r.id)
        ? r.status === 'transmitted' && superpdp.accepted.get(r.id)?.length === 1
        : r.status === 'failed' && Boolean(r.status_message),
    ).length;
    figures.push({
      fault:
        'SuperPDP upload 503, 429, slow, HTML, cut short, reset (once each), 503 and HTML lasting; token 503 then cut; events 503 then HTML',
      requested: ids.length,
      acknowledged: ids.length,
      found,
      lost: ids.length - found,
      doubled: doubled.length,
      unanswered_at_first: ids.length,
      half_written: rows.filter((r) => r.status === 'transmitted' && r.lifecycle.length !== 2).length,
      redelivered: 0,
      uploads: {
        submitted: ids.length,
        uploaded: recovering.filter((id) => byId.get(id)?.pdp_id).length,
        doubled: doubled.length,
      },
      ledger_valid: await ledgerValid(h, [tenant]),
      balances_match: await balancesMatch(h, [tenant]),
      seconds: Math.round((Date.now() - startedAt) / 1000),
      missing: `upload calls ${ids.map((id) => superpdp.uploadCalls.get(id)?.join('>')).join(' ')}; token ${superpdp.tokenCalls.join(' ')}; events ${superpdp.eventCalls.length} calls (${EVENT_FAULTS.join(', ')} first), cursor ${cursor?.events_cursor}; retry gaps ${gaps.map((g) => g.toFixed(1)).join(', ')} s; failed: ${lasting.map((id) => byId.get(id)?.status_message).join(' | ')}`,
    });
    t.true(await ledgerValid(h, [tenant]), 'the ledger verifies');
  },
);

test.serial(
  'Stripe answering 500, 429, slowly, HTML, cut short or reset to a top-up: a 503 in the error shape, nothing left pending, a webhook credits once',
  async (t) => {
    const startedAt = Date.now();
    const tenant = await faultTenant(h);
    const answers: { status: number; body: Record<string, unknown> | null }[] = [];
    for (const _ of TOP_UP_FAULTS) {
      answers.push(
        await request(h, 'POST', '/api/v1/tenant/billing/top-up', tenant.liveKey, { amount: 20 }, 'X-Tenant-Key'),
      );
    }
    const failing = TOP_UP_FAULTS.filter((plan) => !plan.includes('ok')).length;
    for (const [i, res] of answers.entries()) {
      if (i < failing) {
        t.is(res.status, 503, `top-up ${i} (${TOP_UP_FAULTS[i].join(', ')}): 503`);
        t.like(res.body, { code: 'PROVIDER_UNAVAILABLE', error_code: 'PROVIDER_UNAVAILABLE' });
        t.regex(String(res.body?.message), /payment provider/);
      } else {
        t.is(res.status, 201, `top-up ${i} (${TOP_UP_FAULTS[i].join(', ')}): opened after its retries`);
      }
    }
    const topUps = await topUpRows(h, tenant.tenantId);
    t.is(topUps.length, TOP_UP_FAULTS.length);
    const dangling = topUps.filter((r) => r.status === 'pending' && !r.checkout_session_id);
    t.deepEqual(dangling, [], 'no pending top-up without its checkout session');
    const cancelled = topUps.filter((r) => r.status === 'canceled' && r.failure_reason);
    t.is(cancelled.length, failing, 'each failed top-up is cancelled with its reason');
    const opened = answers.slice(failing).map((a) => a.body?.data as { top_up_id: string; session_id: string });
    for (const o of opened) {
      const session = [...stripe.sessions.values()].filter((s) => s.topUpId === o.top_up_id);
      t.is(session.length, 1, 'one session per top-up at the provider, whatever the retries');
      t.is(session[0]?.id, o.session_id);
    }
    t.is(await balanceOf(h, tenant.tenantId), '100.00', 'no fault moved the balance');

    // the webhook: a bad signature is refused; each paid session is credited once, a replay and a second event change nothing
    const paid = (o: { top_up_id: string; session_id: string }) => ({
      id: o.session_id,
      object: 'checkout.session',
      payment_status: 'paid',
      status: 'complete',
      amount_total: 2000,
      currency: 'eur',
      payment_intent: `pi_${o.session_id}`,
      customer: 'cus_fault_suite',
      metadata: { tenant_id: tenant.tenantId, topup_id: o.top_up_id, environment: 'production' },
    });
    const forged = stripeEvent('whsec_someone_else', 'evt_forged', 'checkout.session.completed', paid(opened[0]));
    t.is(await sendStripeWebhook(h, forged), 400, 'a bad Stripe-Signature is refused');
    t.is(await balanceOf(h, tenant.tenantId), '100.00', 'a refused webhook credits nothing');
    const webhookStatuses: number[] = [];
    for (const [i, o] of opened.entries()) {
      const event = stripeEvent(STRIPE_WHSEC, `evt_${i}_${o.top_up_id}`, 'checkout.session.completed', paid(o));
      webhookStatuses.push(await sendStripeWebhook(h, event), await sendStripeWebhook(h, event));
      const other = stripeEvent(STRIPE_WHSEC, `evt_async_${i}`, 'checkout.session.async_payment_succeeded', paid(o));
      webhookStatuses.push(await sendStripeWebhook(h, other));
    }
    t.true(
      webhookStatuses.every((s) => s === 200),
      `webhooks answered ${webhookStatuses.join(' ')}`,
    );
    const credits = await h
      .db('balance_transactions')
      .where({ tenant_id: tenant.tenantId, type: 'balance_topup' })
      .select('reference_id');
    t.is(credits.length, opened.length, 'one credit per paid top-up');
    t.is(new Set(credits.map((c) => c.reference_id)).size, opened.length, 'no top-up credited twice');
    t.is(await balanceOf(h, tenant.tenantId), (100 + 20 * opened.length).toFixed(2));
    const match = await balancesMatch(h, [tenant]);
    t.true(match, 'the balance equals the sum of its movements');
    figures.push({
      fault: `Stripe checkout ${TOP_UP_FAULTS.map((p) => p.join('>')).join(', ')}; forged and repeated webhooks`,
      requested: TOP_UP_FAULTS.length,
      acknowledged: opened.length,
      found: credits.length,
      lost: opened.length - new Set(credits.map((c) => c.reference_id)).size,
      doubled: credits.length - new Set(credits.map((c) => c.reference_id)).size,
      unanswered_at_first: failing,
      half_written: dangling.length + (topUps.length - cancelled.length - opened.length),
      redelivered: opened.length * 2,
      ledger_valid: await ledgerValid(h, [tenant]),
      balances_match: match,
      seconds: Math.round((Date.now() - startedAt) / 1000),
      missing: `${failing} answered 503 and cancelled, ${opened.length} opened (${stripe.sessions.size} sessions at the fake), webhook answers ${webhookStatuses.join(' ')}`,
    });
  },
);

test.serial(
  'Openapi answering 500, 429, slowly, HTML, cut short, reset or a refusal to a handover: each request created once at the provider, charged once; a refusal or a lasting fault fails it, refunded once',
  async (t) => {
    const startedAt = Date.now();
    const tenant = await faultTenant(h);
    t.is(await configureOpenapiAccount(h), 200, 'the admin configures the Openapi account');
    signatureKeys.push(...SIGNATURE_FAULTS.map((_, i) => `signer-${i}-${tenant.tenantId.slice(0, 8)}@example.com`));
    const ids = await createSignatureRequests(h, tenant, signatureKeys);
    const recovering = ids.slice(0, 6);
    const [refused, lasting] = ids.slice(6);
    const lastingKey = signatureKeys[7];
    const rows = await until(
      'every handover recorded, the refusal failed, the lasting fault failed after its second job',
      async () => {
        const list = await signatureRows(h, ids);
        const byId = new Map(list.map((r) => [r.id, r]));
        const done =
          recovering.every((id) => byId.get(id)?.provider_id) &&
          byId.get(refused)?.status === 'failed' &&
          byId.get(lasting)?.status === 'failed';
        return done ? list : null;
      },
      180_000,
    ).catch(async () => signatureRows(h, ids));
    const byId = new Map(rows.map((r) => [r.id, r]));

    const duplicates = signatureKeys.filter((key) => (openapi.created.get(key)?.length ?? 0) > 1);
    t.deepEqual(duplicates, [], 'no request created twice at the provider');
    for (const [i, id] of recovering.entries()) {
      const theirs = openapi.created.get(signatureKeys[i]) ?? [];
      t.is(theirs.length, 1, `${SIGNATURE_FAULTS[i].join(', ')}: created once`);
      t.is(byId.get(id)?.provider_id, theirs[0], 'recorded with the provider id');
      const res = await request(h, 'GET', `/api/v1/signatures/${id}`, tenant.liveKey);
      const view = res.body?.data as { status: string; signers: { signing_url: string | null }[] } | undefined;
      t.is(view?.status, 'pending');
      t.regex(
        view?.signers[0].signing_url ?? '',
        /^https:\/\/sign\.openapi\.test\//,
        'the signer gets the provider link',
      );
    }
    t.is(openapi.created.get(signatureKeys[6]), undefined, 'a refused request is not at the provider');
    t.is(openapi.created.get(lastingKey), undefined, 'a lasting fault creates nothing');
    // what the user reads: failed with the reason, the 1.20 EUR given back once, one signature.failed
    const shown = new Map<string, { status: string; failure_reason: string | null }>();
    for (const id of [refused, lasting]) {
      const res = await request(h, 'GET', `/api/v1/signatures/${id}`, tenant.liveKey);
      shown.set(id, res.body?.data as { status: string; failure_reason: string | null });
    }
    t.like(shown.get(refused), { status: 'failed' });
    t.regex(shown.get(refused)?.failure_reason ?? '', /refused the request: .*not a valid PDF\/A/);
    t.like(shown.get(lasting), { status: 'failed' });
    t.regex(
      shown.get(lasting)?.failure_reason ?? '',
      new RegExp(`could not be reached after ${SIGNATURE_MAX_ATTEMPTS} attempts: Openapi answered 500`),
    );
    t.is(byId.get(lasting)?.provider_attempts, SIGNATURE_MAX_ATTEMPTS);
    t.is(openapi.createCalls.get(lastingKey)?.length, SIGNATURE_MAX_ATTEMPTS, 'no handover after the last attempt');
    const failedIds = [refused, lasting];
    t.deepEqual(
      rows.map((r) => [r.id, r.refunds]).sort(),
      ids.map((id) => [id, failedIds.includes(id) ? 1 : 0]).sort(),
      'each failed request refunded once, nothing else refunded',
    );
    const failedEvents = await h
      .db('events')
      .where({ name: 'signature.failed' })
      .whereRaw("data->>'id' = any(?)", [failedIds]);
    t.is(failedEvents.length, 2, 'one signature.failed per failed request');
    t.is(await balanceOf(h, tenant.tenantId), (100 - 1.2 * recovering.length).toFixed(2), 'only the live ones paid');
    // a creation is tried once per job (never again within the call), the job again no sooner than 30 s later
    const lastingTimes = openapi.createTimes.get(lastingKey) ?? [];
    const jobGap = (lastingTimes[1] - lastingTimes[0]) / 1000;
    t.true(jobGap >= 29.5, `the second job ran ${jobGap.toFixed(1)} s after the first`);
    t.true(
      rows.every((r) => r.charges === 1),
      'each request charged once',
    );
    const match = await balancesMatch(h, [tenant]);
    t.true(match, 'the balance equals the sum of its movements');
    const found =
      recovering.filter((id) => openapi.created.get(signatureKeys[ids.indexOf(id)])?.length === 1).length +
      failedIds.filter((id) => byId.get(id)?.status === 'failed' && byId.get(id)?.refunds === 1).length;
    figures.push({
      fault: `Openapi handover ${SIGNATURE_FAULTS.map((f) => (f.length > 2 ? `${f[0]} lasting` : f.join('>'))).join(', ')}; token mint 500`,
      requested: ids.length,
      acknowledged: ids.length,
      found,
      lost: ids.length - found,
      doubled: duplicates.length + rows.filter((r) => r.charges > 1 || r.refunds > 1).length,
      unanswered_at_first: ids.length,
      half_written: rows.filter((r) => r.charges !== 1 || (r.status === 'failed') !== (r.refunds === 1)).length,
      redelivered: 0,
      refunds: refundsOf(rows),
      ledger_valid: await ledgerValid(h, [tenant]),
      balances_match: match,
      seconds: Math.round((Date.now() - startedAt) / 1000),
      missing: `create calls ${signatureKeys.map((k) => openapi.createCalls.get(k)?.join('>')).join(' ')}; ${openapi.lookups} look-ups; token ${openapi.tokenCalls.join(' ')}; job gap ${jobGap.toFixed(1)} s; failed: ${failedIds.map((id) => byId.get(id)?.failure_reason).join(' | ')}`,
    });
  },
);

test.serial(
  'Openapi answering 500, 429, slowly, cut short, HTML or reset to the sync of ended requests: nothing half-applied, each completed once, an ERROR failed and refunded once',
  async (t) => {
    const startedAt = Date.now();
    const tenant = await faultTenant(h);
    t.is(await configureOpenapiAccount(h), 200, 'the Openapi account is configured');
    const ids = await createSignatureRequests(
      h,
      tenant,
      SYNC_FAULTS.map((_, i) => `sync-${i}-${tenant.tenantId.slice(0, 8)}@example.com`),
    );
    const handed = await until(
      'every request handed over',
      async () => {
        const list = await signatureRows(h, ids);
        return list.every((r) => r.provider_id) ? list : null;
      },
      120_000,
    );
    const providerIdOf = new Map(handed.map((r) => [r.id, r.provider_id as string]));

    // Openapi ends each request and calls back; each sync meets its faults, then the job's retry succeeds.
    const callbackStatuses: number[] = [];
    for (const [i, id] of ids.entries()) {
      const providerId = providerIdOf.get(id) as string;
      syncPlans.set(providerId, SYNC_FAULTS[i]);
      openapi.finish(providerId, SYNC_FAULTS[i].end);
      const callback = new URL(openapi.callbacks.get(providerId) as string);
      const body = { data: { id: providerId, state: SYNC_FAULTS[i].end } };
      callbackStatuses.push((await request(h, 'POST', `${callback.pathname}${callback.search}`, '', body)).status);
    }
    t.true(
      callbackStatuses.every((s) => s === 200),
      `callbacks answered ${callbackStatuses.join(' ')}`,
    );
    const completing = ids.filter((_, i) => SYNC_FAULTS[i].end === 'DONE');
    const erroring = ids.filter((_, i) => SYNC_FAULTS[i].end === 'ERROR');
    const halfWritten = (r: { status: string; files: number; refunds: number }) =>
      (r.status === 'completed') !== (r.files === 3) ||
      (r.status !== 'completed' && r.files !== 1) ||
      (r.status === 'failed') !== (r.refunds === 1);
    // while the retries run, nothing is ever half-applied: a pending request has its original only
    let seenHalf = 0;
    const rows = await until(
      'every ended request completed or failed',
      async () => {
        const list = await signatureRows(h, ids);
        seenHalf = Math.max(seenHalf, list.filter(halfWritten).length);
        const settled = list.every((r) => r.status === (completing.includes(r.id) ? 'completed' : 'failed'));
        return settled ? list : null;
      },
      180_000,
    ).catch(async () => signatureRows(h, ids));
    const byId = new Map(rows.map((r) => [r.id, r]));

    // each fault was met by a first sync job, then a retry read the request again
    for (const [i, id] of ids.entries()) {
      const met = openapi.reads.get(providerIdOf.get(id) as string) ?? [];
      const planned = Object.entries(SYNC_FAULTS[i].faults).flatMap(([route, faults]) =>
        (faults ?? []).map((fault) => `${route}:${fault}`),
      );
      const seen = met.map((r) => `${r.route}:${r.fault}`);
      t.true(
        planned.every((p) => seen.includes(p)),
        `request ${i}: every fault met (${seen.join(' ')})`,
      );
      t.true(met.filter((r) => r.route === 'detail').length >= 2, `request ${i}: synced again after its fault`);
    }
    const events = await h
      .db('events')
      .whereIn('name', ['signature.completed', 'signature.failed'])
      .whereRaw("data->>'id' = any(?)", [ids])
      .select('name', h.db.raw("data->>'id' as id"));
    for (const id of completing) {
      t.is(byId.get(id)?.status, 'completed', `${id}: completed`);
      t.is(byId.get(id)?.files, 3, `${id}: the original, the signed PDF and the proof, each stored once`);
      t.is(events.filter((e) => e.id === id && e.name === 'signature.completed').length, 1, `${id}: one completion`);
    }
    for (const id of erroring) {
      const res = await request(h, 'GET', `/api/v1/signatures/${id}`, tenant.liveKey);
      const view = res.body?.data as { status?: string; failure_reason?: string } | undefined;
      t.is(view?.status, 'failed');
      t.is(view?.failure_reason, 'The signature provider reported an error: 110 Wrong Certificate Credentials');
      t.is(byId.get(id)?.refunds, 1, 'refunded once');
      t.is(events.filter((e) => e.id === id && e.name === 'signature.failed').length, 1, 'one signature.failed');
    }
    t.is(seenHalf, 0, 'no request was ever seen half-applied');
    t.is(await balanceOf(h, tenant.tenantId), (100 - 1.2 * completing.length).toFixed(2), 'the failed one given back');
    const match = await balancesMatch(h, [tenant]);
    t.true(match, 'the balance equals the sum of its movements');
    const doubled =
      rows.filter((r) => r.files > 3 || r.refunds > 1).length +
      ids.filter((id) => events.filter((e) => e.id === id).length > 1).length;
    figures.push({
      fault: `Openapi sync ${SYNC_FAULTS.map((f) => `${Object.entries(f.faults).map(([route, faults]) => `${route} ${faults?.[0]}`)} then ${f.end}`).join(', ')}`,
      requested: ids.length,
      acknowledged: ids.length,
      found: rows.filter((r) => (completing.includes(r.id) ? r.status === 'completed' : r.status === 'failed')).length,
      lost: rows.filter((r) => r.status === 'pending').length,
      doubled,
      unanswered_at_first: ids.length,
      half_written: Math.max(seenHalf, rows.filter(halfWritten).length),
      redelivered: 0,
      refunds: refundsOf(rows),
      ledger_valid: await ledgerValid(h, [tenant]),
      balances_match: match,
      seconds: Math.round((Date.now() - startedAt) / 1000),
      missing: `reads ${ids.map((id) => (openapi.reads.get(providerIdOf.get(id) as string) ?? []).map((r) => `${r.route}:${r.fault}`).join('>')).join(' ')}`,
    });
  },
);
