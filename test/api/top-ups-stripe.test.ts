import test from 'ava';
import Stripe from 'stripe';
import { runAutoReload } from '../../domain/billing/operations/index.js';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import { postJson, readJson } from '../helpers/http.js';
import { type SeededTenant, seedPlatformTenant } from '../helpers/identities.js';
import { nock } from '../helpers/net.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read bodies loosely
type Json = any;
/** A form body as nock hands it to a body predicate (flat `a[b]` keys). */
const formOf = (body: unknown) => new URLSearchParams(body as Record<string, string>);

/** Stripe's HTTP contract (provider-apis.md §3), pinned with nock; the webhook signed by the `stripe` package. */
const STRIPE = 'https://api.stripe.com';
const WHSEC = 'whsec_test_secret_for_top_ups';
let app: TestApp;

test.before(async () => {
  app = await startTestApp({
    env: { RATE_LIMIT_SCALE: '0', STRIPE_SECRET_KEY: 'sk_test_123', STRIPE_WEBHOOK_SECRET: WHSEC },
  });
});
test.after.always(() => app?.close());
test.afterEach.always(() => nock.cleanAll());

async function tenantWith(balance: string): Promise<SeededTenant> {
  const tenant = await seedPlatformTenant(app.ownerDb);
  await app.ownerDb('balances').where({ tenant_id: tenant.tenantId }).update({ amount: balance });
  return tenant;
}
const balanceOf = async (tenantId: string) =>
  (await app.ownerDb('balances').where({ tenant_id: tenantId }).first<{ amount: string }>('amount'))!.amount;
const topUpCredits = (tenantId: string) =>
  app.ownerDb('balance_transactions').where({ tenant_id: tenantId, type: 'balance_topup' }).select('*');

const session = (id: string, tenant: SeededTenant, topUpId: string, extra: Record<string, unknown> = {}) => ({
  id,
  object: 'checkout.session',
  url: `https://checkout.stripe.com/c/pay/${id}`,
  status: 'open',
  payment_status: 'unpaid',
  mode: 'payment',
  amount_total: 5000,
  currency: 'eur',
  payment_intent: null,
  customer: null,
  client_reference_id: tenant.tenantId,
  metadata: { tenant_id: tenant.tenantId, topup_id: topUpId, environment: 'production' },
  livemode: false,
  ...extra,
});
const intent = (id: string, tenant: SeededTenant, topUpId: string, extra: Record<string, unknown> = {}) => ({
  id,
  object: 'payment_intent',
  amount: 5000,
  amount_received: 5000,
  currency: 'eur',
  status: 'succeeded',
  customer: 'cus_1',
  payment_method: 'pm_card_1',
  metadata: { tenant_id: tenant.tenantId, topup_id: topUpId, environment: 'production' },
  livemode: false,
  ...extra,
});

/** POST /top-up against a nocked session creation; returns the checkout and the form Stripe received. */
async function startTopUp(
  tenant: SeededTenant,
  sessionId: string,
  amount = 50,
): Promise<{ data: Json; form: URLSearchParams; headers: Record<string, string> }> {
  let form = new URLSearchParams();
  const headers: Record<string, string> = {};
  const capture = (name: string) => (value: string | null) => {
    headers[name] = value ?? '';
    return true;
  };
  const scope = nock(STRIPE)
    .matchHeader('idempotency-key', capture('idempotency-key'))
    .matchHeader('authorization', capture('authorization'))
    .matchHeader('content-type', capture('content-type'))
    .post('/v1/checkout/sessions', (body) => {
      form = formOf(body);
      return true;
    })
    .reply(() => [200, session(sessionId, tenant, form.get('metadata[topup_id]') ?? '')]);
  const res = await app.request(
    '/api/v1/tenant/billing/top-up',
    postJson({ amount }, { 'X-API-Key': tenant.keys.sk_live }),
  );
  const json = await readJson(res);
  if (res.status !== 201) throw new Error(`top-up: ${res.status} ${JSON.stringify(json)}`);
  scope.done();
  return { data: json.data, form, headers };
}

const confirm = (tenant: SeededTenant, ref: string) =>
  app.request(
    '/api/v1/tenant/billing/top-up/confirm',
    postJson({ payment_intent_id: ref }, { 'X-API-Key': tenant.keys.sk_live }),
  );

function signedEvent(payload: object, secret = WHSEC): { body: string; header: string } {
  const body = JSON.stringify(payload);
  return { body, header: Stripe.webhooks.generateTestHeaderString({ payload: body, secret }) };
}
const sendWebhook = (body: string, header: string) =>
  app.request('/webhooks/stripe', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Stripe-Signature': header },
    body,
  });
const completedEvent = (eventId: string, data: object) => ({
  id: eventId,
  object: 'event',
  api_version: '2025-09-30',
  created: Math.floor(Date.now() / 1000),
  livemode: false,
  type: 'checkout.session.completed',
  data: { object: data },
});

test.serial('a top-up opens a Stripe Checkout Session: form body, metadata, idempotency key', async (t) => {
  const tenant = await tenantWith('0');
  const { data, form, headers } = await startTopUp(tenant, 'cs_test_create', 50);
  t.is(data.checkout_url, 'https://checkout.stripe.com/c/pay/cs_test_create');
  t.is(data.amount, 50);
  t.is(data.currency, 'EUR');
  t.is(form.get('mode'), 'payment');
  t.is(form.get('line_items[0][price_data][currency]'), 'eur');
  t.is(form.get('line_items[0][price_data][unit_amount]'), '5000');
  t.is(form.get('line_items[0][quantity]'), '1');
  t.is(form.get('client_reference_id'), tenant.tenantId);
  t.is(form.get('metadata[tenant_id]'), tenant.tenantId);
  t.is(form.get('metadata[topup_id]'), data.top_up_id);
  t.is(form.get('metadata[environment]'), 'production');
  t.is(form.get('payment_intent_data[metadata][topup_id]'), data.top_up_id);
  t.is(form.get('payment_intent_data[setup_future_usage]'), 'off_session');
  t.regex(form.get('success_url') ?? '', /status=success&session_id=\{CHECKOUT_SESSION_ID\}$/);
  t.is(headers['idempotency-key'], `top-up-${data.top_up_id}`);
  t.is(headers.authorization, 'Bearer sk_test_123');
  t.regex(headers['content-type'], /application\/x-www-form-urlencoded/);
  const row = await app.ownerDb('top_ups').where({ id: data.top_up_id }).first();
  t.like(row, { status: 'pending', checkout_session_id: 'cs_test_create', provider: 'stripe', amount: '50.00' });
});

test.serial('confirm by Checkout Session id checks the session and its PaymentIntent, then credits once', async (t) => {
  const tenant = await tenantWith('1.00');
  const { data } = await startTopUp(tenant, 'cs_test_bysession');
  const scope = nock(STRIPE)
    .get('/v1/checkout/sessions/cs_test_bysession')
    .reply(
      200,
      session('cs_test_bysession', tenant, data.top_up_id, {
        status: 'complete',
        payment_status: 'paid',
        payment_intent: 'pi_bysession',
        customer: 'cus_1',
      }),
    )
    .get('/v1/payment_intents/pi_bysession')
    .reply(200, intent('pi_bysession', tenant, data.top_up_id));
  const res = await confirm(tenant, 'cs_test_bysession');
  const json = await readJson(res);
  t.is(res.status, 200, JSON.stringify(json));
  t.like(json.data, { status: 'succeeded', credited: true, balance: 51, payment_intent_id: 'pi_bysession' });
  scope.done();
  t.is(await balanceOf(tenant.tenantId), '51.00');
  // Again: no provider call (nock would refuse it), same answer, no second credit.
  const again = await readJson(await confirm(tenant, 'cs_test_bysession'));
  t.like(again.data, { status: 'succeeded', credited: true });
  t.is((await topUpCredits(tenant.tenantId)).length, 1);
  const saved = await app.ownerDb('billing_payment_methods').where({ tenant_id: tenant.tenantId }).first();
  t.like(saved, { provider: 'stripe', customer_id: 'cus_1', payment_method_id: 'pm_card_1' });
});

test.serial('confirm by PaymentIntent id asks Stripe which top-up it pays', async (t) => {
  const tenant = await tenantWith('0');
  const { data } = await startTopUp(tenant, 'cs_test_bypi');
  const scope = nock(STRIPE)
    .get('/v1/payment_intents/pi_bypi')
    .reply(200, intent('pi_bypi', tenant, data.top_up_id));
  const res = await confirm(tenant, 'pi_bypi');
  const json = await readJson(res);
  t.is(res.status, 200, JSON.stringify(json));
  t.like(json.data, { id: data.top_up_id, status: 'succeeded', balance: 50 });
  scope.done();
});

test.serial('an unpaid session, a processing intent or another amount is 409; an unknown one 404', async (t) => {
  const tenant = await tenantWith('0');
  const { data } = await startTopUp(tenant, 'cs_test_unpaid');
  nock(STRIPE)
    .get('/v1/checkout/sessions/cs_test_unpaid')
    .reply(200, session('cs_test_unpaid', tenant, data.top_up_id));
  const unpaid = await confirm(tenant, 'cs_test_unpaid');
  t.is(unpaid.status, 409);
  t.like(await readJson(unpaid), { code: 'PAYMENT_NOT_COMPLETED' });

  nock(STRIPE)
    .get('/v1/payment_intents/pi_processing')
    .reply(200, intent('pi_processing', tenant, data.top_up_id, { status: 'processing', amount_received: 0 }));
  t.is((await confirm(tenant, 'pi_processing')).status, 409);

  nock(STRIPE)
    .get('/v1/payment_intents/pi_short')
    .reply(200, intent('pi_short', tenant, data.top_up_id, { amount: 1000, amount_received: 1000 }));
  const short = await confirm(tenant, 'pi_short');
  t.is(short.status, 409);
  t.is(await balanceOf(tenant.tenantId), '0.00');

  nock(STRIPE)
    .get('/v1/payment_intents/pi_unknown')
    .reply(404, {
      error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such payment_intent' },
    });
  const unknown = await confirm(tenant, 'pi_unknown');
  t.is(unknown.status, 404);
  t.like(await readJson(unknown), { code: 'NOT_FOUND' });
  // A session id this tenant never opened: 404 without asking Stripe.
  t.is((await confirm(tenant, 'cs_test_nobody')).status, 404);
  // Another tenant's session: 404 too.
  const other = await tenantWith('0');
  t.is((await confirm(other, 'cs_test_unpaid')).status, 404);
});

test.serial('Stripe 5xx is retried, then answered 503 with the top-up cancelled', async (t) => {
  const tenant = await tenantWith('0');
  const scope = nock(STRIPE)
    .post('/v1/checkout/sessions')
    .times(3)
    .reply(500, { error: { type: 'api_error', message: 'Something went wrong' } });
  const res = await app.request(
    '/api/v1/tenant/billing/top-up',
    postJson({ amount: 20 }, { 'X-API-Key': tenant.keys.sk_live }),
  );
  t.is(res.status, 503);
  t.like(await readJson(res), { code: 'PROVIDER_UNAVAILABLE' });
  scope.done();
  const row = await app.ownerDb('top_ups').where({ tenant_id: tenant.tenantId }).first();
  t.like(row, { status: 'canceled', checkout_session_id: null });

  // One 503 then a success: the retry carries the same Idempotency-Key.
  const keys: string[] = [];
  let topUpId = '';
  const keyed = () =>
    nock(STRIPE).matchHeader('idempotency-key', (value: string | null) => {
      keys.push(value ?? '');
      return true;
    });
  keyed()
    .post('/v1/checkout/sessions')
    .reply(503, { error: { type: 'api_error', message: 'busy' } });
  keyed()
    .post('/v1/checkout/sessions', (body) => {
      topUpId = formOf(body).get('metadata[topup_id]')!;
      return true;
    })
    .reply(() => [200, session('cs_test_retry', tenant, topUpId)]);
  const ok = await app.request(
    '/api/v1/tenant/billing/top-up',
    postJson({ amount: 20 }, { 'X-API-Key': tenant.keys.sk_live }),
  );
  t.is(ok.status, 201);
  t.is(keys.length, 2);
  t.is(keys[0], keys[1]);
});

test.serial(
  'a 200 that is not a session (an HTML page, a body cut short) is asked again, then 503 with the top-up cancelled',
  async (t) => {
    const tenant = await tenantWith('0');
    const scope = nock(STRIPE)
      .post('/v1/checkout/sessions')
      .reply(200, '<html><body>502 Bad Gateway</body></html>', { 'Content-Type': 'text/html' })
      .post('/v1/checkout/sessions')
      .reply(200, '{"id": "cs_test_cut", "url": "https://checkout.str', { 'Content-Type': 'application/json' })
      .post('/v1/checkout/sessions')
      .reply(200, { id: 'cs_test_no_url', object: 'checkout.session', url: null });
    const res = await app.request(
      '/api/v1/tenant/billing/top-up',
      postJson({ amount: 20 }, { 'X-API-Key': tenant.keys.sk_live }),
    );
    t.is(res.status, 503);
    t.like(await readJson(res), { code: 'PROVIDER_UNAVAILABLE' });
    scope.done();
    const row = await app.ownerDb('top_ups').where({ tenant_id: tenant.tenantId }).first();
    t.like(row, { status: 'canceled', checkout_session_id: null });
    t.truthy(row.failure_reason);
    t.is(await balanceOf(tenant.tenantId), '0.00');
  },
);

test.serial('the webhook credits a paid session; a replay and a second event change nothing', async (t) => {
  const tenant = await tenantWith('3.00');
  const { data } = await startTopUp(tenant, 'cs_test_hook');
  const paid = session('cs_test_hook', tenant, data.top_up_id, {
    status: 'complete',
    payment_status: 'paid',
    payment_intent: 'pi_hook',
    customer: 'cus_hook',
  });
  const { body, header } = signedEvent(completedEvent('evt_hook_1', paid));
  const res = await sendWebhook(body, header);
  t.is(res.status, 200);
  t.like(await readJson(res), { status: 'processed', provider: 'stripe', event_id: 'evt_hook_1' });
  t.is(await balanceOf(tenant.tenantId), '53.00');
  const replay = await sendWebhook(body, header);
  t.like(await readJson(replay), { status: 'already_processed' });
  // Stripe's other event for the same payment: processed, but the top-up is already credited.
  const second = signedEvent({
    ...completedEvent('evt_hook_2', paid),
    type: 'checkout.session.async_payment_succeeded',
  });
  t.like(await readJson(await sendWebhook(second.body, second.header)), { status: 'processed' });
  t.is(await balanceOf(tenant.tenantId), '53.00');
  t.is((await topUpCredits(tenant.tenantId)).length, 1);
  // Then a confirm finds it credited, without asking Stripe.
  t.like((await readJson(await confirm(tenant, 'cs_test_hook'))).data, { status: 'succeeded', credited: true });
  const events = await app.ownerDb('events').where({ tenant_id: tenant.tenantId, name: 'balance.topped_up' });
  t.is(events.length, 1);
  const saved = await app.ownerDb('billing_payment_methods').where({ tenant_id: tenant.tenantId }).first();
  t.like(saved, { customer_id: 'cus_hook', payment_method_id: null, source_payment_intent_id: 'pi_hook' });
});

test.serial('an async payment that fails marks the top-up failed, nothing credited', async (t) => {
  const tenant = await tenantWith('0');
  const { data } = await startTopUp(tenant, 'cs_test_async');
  const failed = signedEvent({
    ...completedEvent(
      'evt_async_fail',
      session('cs_test_async', tenant, data.top_up_id, { status: 'complete', payment_status: 'unpaid' }),
    ),
    type: 'checkout.session.async_payment_failed',
  });
  t.is((await sendWebhook(failed.body, failed.header)).status, 200);
  t.like(await app.ownerDb('top_ups').where({ id: data.top_up_id }).first(), { status: 'failed' });
  t.is(await balanceOf(tenant.tenantId), '0.00');
});

test.serial('a bad, missing or stale Stripe-Signature is 400 and nothing is recorded', async (t) => {
  const tenant = await tenantWith('0');
  const { data } = await startTopUp(tenant, 'cs_test_badsig');
  const payload = completedEvent(
    'evt_badsig',
    session('cs_test_badsig', tenant, data.top_up_id, {
      status: 'complete',
      payment_status: 'paid',
      payment_intent: 'pi_badsig',
    }),
  );
  const wrong = signedEvent(payload, 'whsec_someone_else');
  const res = await sendWebhook(wrong.body, wrong.header);
  t.is(res.status, 400);
  t.like(await readJson(res), { code: 'STRIPE_SIGNATURE_INVALID' });
  const body = JSON.stringify(payload);
  t.is((await sendWebhook(body, '')).status, 400);
  const stale = Stripe.webhooks.generateTestHeaderString({
    payload: body,
    secret: WHSEC,
    timestamp: Math.floor(Date.now() / 1000) - 301,
  });
  t.is((await sendWebhook(body, stale)).status, 400);
  // A body changed after signing.
  const good = signedEvent(payload);
  t.is((await sendWebhook(good.body.replace('5000', '9000'), good.header)).status, 400);
  t.is(await app.ownerDb('inbound_events').where({ provider: 'stripe', event_id: 'evt_badsig' }).first(), undefined);
  t.is(await balanceOf(tenant.tenantId), '0.00');
});

test.serial('ten concurrent confirms interleaved with the webhook credit the balance once', async (t) => {
  const tenant = await tenantWith('0');
  const { data } = await startTopUp(tenant, 'cs_test_race');
  const paid = session('cs_test_race', tenant, data.top_up_id, {
    status: 'complete',
    payment_status: 'paid',
    payment_intent: 'pi_race',
    customer: 'cus_race',
  });
  nock(STRIPE).persist().get('/v1/checkout/sessions/cs_test_race').reply(200, paid);
  nock(STRIPE)
    .persist()
    .get('/v1/payment_intents/pi_race')
    .reply(200, intent('pi_race', tenant, data.top_up_id, { customer: 'cus_race' }));
  const hook = signedEvent(completedEvent('evt_race', paid));
  const confirms = Array.from({ length: 10 }, (_, i) => confirm(tenant, i % 2 === 0 ? 'cs_test_race' : 'pi_race'));
  const answers = await Promise.all([
    ...confirms.slice(0, 5),
    sendWebhook(hook.body, hook.header),
    ...confirms.slice(5),
  ]);
  for (const res of answers) t.is(res.status, 200);
  const bodies = await Promise.all(answers.map(readJson));
  for (const [i, body] of bodies.entries()) {
    if (i === 5) t.is(body.status, 'processed');
    else t.like(body.data, { status: 'succeeded', credited: true, balance: 50 });
  }
  t.is(await balanceOf(tenant.tenantId), '50.00');
  t.is((await topUpCredits(tenant.tenantId)).length, 1);
});

test.serial(
  'an auto-reload charges the saved card off-session; a declined card is reported, not retried',
  async (t) => {
    const tenant = await tenantWith('4.00');
    await app.ownerDb('billing_payment_methods').insert({
      tenant_id: tenant.tenantId,
      provider: 'stripe',
      customer_id: 'cus_saved',
      payment_method_id: 'pm_saved',
      updated_at: new Date(),
    });
    const reload = async () => {
      const [row] = await app
        .ownerDb('top_ups')
        .insert({
          tenant_id: tenant.tenantId,
          environment: 'production',
          source: 'auto_reload',
          provider: 'stripe',
          amount: '25.00',
          created_at: new Date(),
        })
        .returning('id');
      return row.id as string;
    };
    const okId = await reload();
    let form = new URLSearchParams();
    let key = '';
    nock(STRIPE)
      .matchHeader('idempotency-key', (value: string | null) => {
        key = value ?? '';
        return true;
      })
      .post('/v1/payment_intents', (body) => {
        form = formOf(body);
        return true;
      })
      .reply(() => {
        return [
          200,
          intent('pi_reload', tenant, okId, {
            amount: 2500,
            amount_received: 2500,
            customer: 'cus_saved',
            payment_method: 'pm_saved',
          }),
        ];
      });
    const done = await execute(
      runAutoReload,
      { top_up_id: okId },
      systemCaller(tenant.tenantId, 'production'),
      app.deps,
    );
    t.like(done, { status: 'succeeded', credited: true, balance: 29 });
    t.is(form.get('off_session'), 'true');
    t.is(form.get('confirm'), 'true');
    t.is(form.get('customer'), 'cus_saved');
    t.is(form.get('payment_method'), 'pm_saved');
    t.is(form.get('amount'), '2500');
    t.is(form.get('metadata[topup_id]'), okId);
    t.is(key, `auto-reload-${okId}`);
    // The job again: settled, no charge (nock has no interceptor left).
    t.like(await execute(runAutoReload, { top_up_id: okId }, systemCaller(tenant.tenantId, 'production'), app.deps), {
      status: 'succeeded',
    });

    const declinedId = await reload();
    nock(STRIPE)
      .post('/v1/payment_intents')
      .reply(402, {
        error: {
          type: 'card_error',
          code: 'card_declined',
          decline_code: 'insufficient_funds',
          message: 'Your card has insufficient funds.',
          payment_intent: intent('pi_declined', tenant, declinedId, {
            status: 'requires_payment_method',
            amount_received: 0,
          }),
        },
      });
    const declined = await execute(
      runAutoReload,
      { top_up_id: declinedId },
      systemCaller(tenant.tenantId, 'production'),
      app.deps,
    );
    t.like(declined, { status: 'failed', credited: false });
    t.regex(declined.failure_reason ?? '', /insufficient_funds/);
    t.is(await balanceOf(tenant.tenantId), '29.00');
    const failedEvents = await app
      .ownerDb('events')
      .where({ tenant_id: tenant.tenantId, name: 'balance.auto_reload_failed' });
    t.is(failedEvents.length, 1);
    t.like(failedEvents[0].data, { id: declinedId, amount: 25, reason: declined.failure_reason });

    // Stripe down: the job throws a retryable error and the reload stays pending.
    const downId = await reload();
    nock(STRIPE).post('/v1/payment_intents').times(3).reply(502, 'bad gateway');
    const err = await t.throwsAsync(
      execute(runAutoReload, { top_up_id: downId }, systemCaller(tenant.tenantId, 'production'), app.deps),
    );
    t.like(err, { code: 'PROVIDER_UNAVAILABLE', extra: { retryable: true } });
    t.like(await app.ownerDb('top_ups').where({ id: downId }).first(), { status: 'pending' });
  },
);
