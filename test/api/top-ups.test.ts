import test from 'ava';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.js';
import { postJson, readJson } from '../helpers/http.js';
import { type SeededTenant, seedPlatformTenant } from '../helpers/identities.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read bodies loosely
type Json = any;

/**
 * Top-ups on the payment simulator: production without STRIPE_SECRET_KEY in a local setup
 * (ENABLE_SIMULATORS), and sandbox always. The checkout page is driven by headless Chromium.
 */
let app: TestApp;
let browser: Browser;

test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
  // Links (checkout and return URLs) point at this very server.
  app.deps.config.publicBaseUrl = app.url;
  browser = await launchBrowser();
});
test.after.always(async () => {
  await browser?.close();
  await app?.close();
});

async function tenantWith(balance: string): Promise<SeededTenant> {
  const tenant = await seedPlatformTenant(app.ownerDb);
  await app.ownerDb('balances').where({ tenant_id: tenant.tenantId }).update({ amount: balance });
  return tenant;
}
const balanceOf = async (tenant: SeededTenant): Promise<number> => {
  const res = await app.request('/api/v1/tenant/balance', { headers: { 'X-API-Key': tenant.keys.sk_live } });
  return (await readJson(res)).data.amount;
};
const topUp = (key: string, body: unknown) =>
  app.request('/api/v1/tenant/billing/top-up', postJson(body, { 'X-API-Key': key }));
const confirm = (key: string, ref: string) =>
  app.request('/api/v1/tenant/billing/top-up/confirm', postJson({ payment_intent_id: ref }, { 'X-API-Key': key }));

async function checkout(key: string, amount: number): Promise<Json> {
  const res = await topUp(key, { amount });
  const json = await readJson(res);
  if (res.status !== 201) throw new Error(`top-up: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

test('bad amounts and unknown ids are refused in the error shape, nothing written', async (t) => {
  const tenant = await tenantWith('0');
  const low = await topUp(tenant.keys.sk_live, { amount: 9.99 });
  t.is(low.status, 422);
  const lowBody = await readJson(low);
  t.truthy(lowBody.errors.amount);
  t.is(typeof lowBody.message, 'string');

  const precise = await topUp(tenant.keys.sk_live, { amount: 10.001 });
  t.is(precise.status, 422);
  t.deepEqual((await readJson(precise)).errors, { amount: ['must have at most 2 decimals'] });

  t.is((await topUp(tenant.keys.sk_live, { amount: '50' })).status, 422);
  t.is((await topUp(tenant.keys.sk_live, {})).status, 422);

  const unknown = await confirm(tenant.keys.sk_live, 'cs_sim_doesnotexist0000000000000000');
  t.is(unknown.status, 404);
  t.like(await readJson(unknown), { code: 'NOT_FOUND', error: 'not_found' });
  const unknownIntent = await confirm(tenant.keys.sk_live, 'pi_sim_doesnotexist00000000');
  t.is(unknownIntent.status, 404);
  const malformed = await confirm(tenant.keys.sk_live, 'ch_123');
  t.is(malformed.status, 422);
  t.truthy((await readJson(malformed)).errors.payment_intent_id);

  t.is((await app.ownerDb('top_ups').where({ tenant_id: tenant.tenantId })).length, 0);
});

test.serial('paying on the simulator checkout page credits the balance; Cancel leaves it unchanged', async (t) => {
  const tenant = await tenantWith('2.00');
  const page = await browser.newPage();

  // Cancel first: back to the return page, nothing charged.
  const cancelled = await checkout(tenant.keys.sk_live, 25);
  t.true(cancelled.checkout_url.startsWith(`${app.url}/simulator/checkout/cs_sim_`));
  await page.goto(cancelled.checkout_url);
  await page.getByRole('heading', { name: 'Top-up: 25.00 EUR' }).waitFor();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('heading', { name: 'Payment cancelled' }).waitFor();
  t.regex(page.url(), /\/checkout\/return\?status=cancel&session_id=cs_sim_/);
  t.is(await balanceOf(tenant), 2);
  const notPaid = await confirm(tenant.keys.sk_live, cancelled.session_id);
  t.is(notPaid.status, 409);
  t.like(await readJson(notPaid), { code: 'PAYMENT_NOT_COMPLETED' });

  // Then pay.
  const paying = await checkout(tenant.keys.sk_live, 30.5);
  await page.goto(paying.checkout_url);
  await page.getByRole('heading', { name: 'Top-up: 30.50 EUR' }).waitFor();
  await page.getByRole('button', { name: 'Pay with 4242 4242 4242 4242' }).click();
  await page.getByRole('heading', { name: 'Payment received' }).waitFor();
  t.regex(page.url(), new RegExp(`/checkout/return\\?status=success&session_id=${paying.session_id}$`));
  t.is(await balanceOf(tenant), 32.5);

  // The page of a paid session says so, and paying again changes nothing.
  await page.goto(paying.checkout_url);
  await page.getByText('This checkout is complete (paid).').waitFor();
  const replay = await app.request(`/simulator/checkout/${paying.session_id}/pay`, {
    method: 'POST',
    redirect: 'manual',
  });
  t.is(replay.status, 303);
  t.is(await balanceOf(tenant), 32.5);

  // Confirming afterwards (what the return page's app would do) finds it credited.
  const confirmed = await readJson(await confirm(tenant.keys.sk_live, paying.session_id));
  t.like(confirmed.data, { status: 'succeeded', credited: true, balance: 32.5, provider: 'simulator' });
  t.regex(confirmed.data.payment_intent_id, /^pi_sim_/);
  const again = await readJson(await confirm(tenant.keys.sk_live, confirmed.data.payment_intent_id));
  t.like(again.data, { id: paying.top_up_id, status: 'succeeded' });
  const credits = await app
    .ownerDb('balance_transactions')
    .where({ tenant_id: tenant.tenantId, type: 'balance_topup' });
  t.is(credits.length, 1);
  const events = await app.ownerDb('events').where({ tenant_id: tenant.tenantId, name: 'balance.topped_up' });
  t.like(
    events.map((e) => e.data),
    [{ id: paying.top_up_id, amount: 30.5, balance: 32.5, source: 'checkout' }],
  );
  await page.close();
});

test('unknown checkout pages are 404, and another site cannot post the page’s forms', async (t) => {
  const res = await app.request('/simulator/checkout/cs_sim_unknown000000000000000000000');
  t.is(res.status, 404);
  t.regex(await res.text(), /Unknown checkout/);
  t.is((await app.request('/simulator/checkout/not-a-session')).status, 404);
  const tenant = await tenantWith('0');
  const session = await checkout(tenant.keys.sk_live, 10);
  const forged = await app.request(`/simulator/checkout/${session.session_id}/pay`, {
    method: 'POST',
    headers: { Origin: 'https://evil.example' },
  });
  t.is(forged.status, 403);
  t.is(await balanceOf(tenant), 0);
});

test('a sandbox top-up is a rehearsal on the simulator: paid, never credited', async (t) => {
  const tenant = await tenantWith('5.00');
  const session = await checkout(tenant.keys.sk_test, 100);
  const paid = await app.request(`/simulator/checkout/${session.session_id}/pay`, {
    method: 'POST',
    redirect: 'manual',
  });
  t.is(paid.status, 303);
  const confirmed = await readJson(await confirm(tenant.keys.sk_test, session.session_id));
  t.like(confirmed.data, { status: 'succeeded', environment: 'sandbox', credited: false, balance: null });
  t.is(await balanceOf(tenant), 5);
  // A sandbox card is never kept for production auto-reloads.
  t.is(await app.ownerDb('billing_payment_methods').where({ tenant_id: tenant.tenantId }).first(), undefined);
});

test('a publishable key may not top up the tenant', async (t) => {
  const tenant = await tenantWith('0');
  const res = await app.request(
    '/api/v1/tenant/billing/top-up',
    postJson({ amount: 10 }, { 'X-API-Key': tenant.keys.pk_live }),
  );
  t.true([401, 403].includes(res.status));
});
