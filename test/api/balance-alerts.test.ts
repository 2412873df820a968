import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import { completeSimulatedCheckout } from '../../domain/billing/operations/index.js';
import { anonymousCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import { autoReloadBalance } from '../../workers/handlers/auto-reload-balance.js';
import { sendBalanceAlert } from '../../workers/handlers/send-balance-alert.js';
import { postJson, readJson } from '../helpers/http.js';
import { type SeededTenant, seedPlatformTenant } from '../helpers/identities.js';
import { invoiceBody } from '../helpers/invoices.js';
import { queuedJobs } from '../helpers/seed.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * A production tenant draining its balance with invoices (0.04 each): `balance.low`, then
 * `balance.critical`, then an auto-reload on the card saved by its first checkout (the payment
 * simulator in this local setup); with a card declined off-session, the reload fails, is
 * reported, and the 402 comes after the last cent.
 */
let app: TestApp;
let mailLog: string;

test.before(async () => {
  mailLog = path.join(await mkdtemp(path.join(tmpdir(), 'balance-mail-')), 'mail.log');
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0', MAIL_LOG: mailLog } });
});
test.after.always(() => app?.close());

/** A tenant whose card is saved by one paid checkout of 10 EUR, then set to `balance` with the given settings. */
async function tenantWithCard(card: string, balance: string): Promise<SeededTenant> {
  const tenant = await seedPlatformTenant(app.ownerDb);
  await app
    .ownerDb('tenants')
    .where({ id: tenant.tenantId })
    .update({ billing_email: `billing-${tenant.tenantId}@example.com` });
  const res = await app.request(
    '/api/v1/tenant/billing/top-up',
    postJson({ amount: 10 }, { 'X-API-Key': tenant.keys.sk_live }),
  );
  const { data } = await readJson(res);
  await execute(
    completeSimulatedCheckout,
    { session_id: data.session_id, action: 'pay', card },
    anonymousCaller(),
    app.deps,
  );
  await app.ownerDb('balances').where({ tenant_id: tenant.tenantId }).update({ amount: balance });
  // What PUT /api/v1/balance/settings (a dashboard route) would set.
  await app.ownerDb('balances').where({ tenant_id: tenant.tenantId }).update({
    low_balance_alert_threshold: '0.30',
    critical_balance_alert_threshold: '0.18',
    auto_reload_enabled: true,
    auto_reload_threshold: '0.10',
    auto_reload_amount: '10.00',
  });
  return tenant;
}

const invoice = (tenant: SeededTenant) =>
  app.request('/api/v1/tenant/invoices', postJson(invoiceBody(), { 'X-API-Key': tenant.keys.sk_live }));
const balanceOf = async (tenant: SeededTenant) =>
  (await app.ownerDb('balances').where({ tenant_id: tenant.tenantId }).first<{ amount: string }>('amount'))!.amount;
const eventsOf = async (tenant: SeededTenant) =>
  (
    await app
      .ownerDb('events')
      .where({ tenant_id: tenant.tenantId })
      .whereLike('name', 'balance.%')
      .orderBy('created_at')
  ).map((e) => ({ name: e.name as string, data: e.data }));
const jobsOf = async (queue: string, tenant: SeededTenant) =>
  (await queuedJobs(app.ownerDb, queue)).filter((job) => job.tenantId === tenant.tenantId);

test.serial('draining the balance: low, then critical, then an auto-reload, never below zero', async (t) => {
  const tenant = await tenantWithCard('4242424242424242', '0.40');
  for (let i = 0; i < 8; i++) t.is((await invoice(tenant)).status, 201);
  t.is(await balanceOf(tenant), '0.08');
  const events = (await eventsOf(tenant)).filter(
    (e) => e.name !== 'balance.topped_up' || e.data.source === 'auto_reload',
  );
  t.deepEqual(
    events.map((e) => e.name),
    ['balance.low', 'balance.critical'],
  );
  t.like(events[0].data, { amount: 0.28, currency: 'EUR', threshold: 0.3 });
  t.like(events[1].data, { amount: 0.16, currency: 'EUR', threshold: 0.18 });

  // The 8th invoice crossed 0.10: one auto-reload queued (the 9th and 10th below it queue none).
  for (let i = 0; i < 2; i++) t.is((await invoice(tenant)).status, 201);
  const reloads = await jobsOf('auto-reload-balance', tenant);
  t.is(reloads.length, 1);
  const pending = await app.ownerDb('top_ups').where({ tenant_id: tenant.tenantId, source: 'auto_reload' });
  t.like(pending, [{ status: 'pending', amount: '10.00' }]);
  // At most one in flight, by the database: a second pending auto-reload is refused.
  const second = app.ownerDb('top_ups').insert({
    tenant_id: tenant.tenantId,
    environment: 'production',
    source: 'auto_reload',
    provider: 'simulator',
    amount: '10.00',
    created_at: new Date(),
  });
  await t.throwsAsync(second, { message: /top_ups_one_reload_in_flight/ });

  await autoReloadBalance(reloads[0] as never, app.deps);
  t.is(await balanceOf(tenant), '10.00');
  await autoReloadBalance(reloads[0] as never, app.deps);
  t.is(await balanceOf(tenant), '10.00');
  const after = (await eventsOf(tenant)).map((e) => e.name);
  t.deepEqual(after.slice(-3), ['balance.low', 'balance.critical', 'balance.topped_up']);
  const reloaded = (await eventsOf(tenant)).at(-1)!;
  t.like(reloaded.data, { amount: 10, balance: 10, source: 'auto_reload' });

  // Mail for each alert, to the billing e-mail.
  const alerts = await jobsOf('send-balance-alert', tenant);
  t.deepEqual(
    alerts.map((a) => a.kind),
    ['low', 'critical'],
  );
  for (const alert of alerts) await sendBalanceAlert(alert as never, app.deps);
  const mail = await readFile(mailLog, 'utf8');
  t.regex(mail, new RegExp(`billing-${tenant.tenantId}@example.com`));
  t.regex(mail, /Your balance is low: 0\.28 EUR/);
  t.regex(mail, /Your balance is critically low: 0\.16 EUR/);

  const movements = await app.ownerDb('balance_transactions').where({ tenant_id: tenant.tenantId });
  for (const m of movements) t.true(Number(m.balance_after) >= 0);

  // Back above the thresholds, the alerts are armed again.
  await app.ownerDb('balances').where({ tenant_id: tenant.tenantId }).update({ amount: '0.32' });
  t.is((await invoice(tenant)).status, 201);
  t.is((await eventsOf(tenant)).at(-1)!.name, 'balance.low');
});

test.serial('a declined auto-reload is reported by event and mail; the balance runs out with a 402', async (t) => {
  const tenant = await tenantWithCard('4000000000000341', '0.40');
  for (let i = 0; i < 8; i++) t.is((await invoice(tenant)).status, 201);
  const [reload] = await jobsOf('auto-reload-balance', tenant);
  const outcome = (await autoReloadBalance(reload as never, app.deps)) as { status: string };
  t.is(outcome.status, 'failed');
  t.is(await balanceOf(tenant), '0.08');
  const failed = (await eventsOf(tenant)).find((e) => e.name === 'balance.auto_reload_failed');
  t.like(failed?.data, { amount: 10, balance: 0.08, reason: 'card_declined: Your card was declined.' });
  const mails = (await jobsOf('send-balance-alert', tenant)).filter((a) => a.kind === 'auto_reload_failed');
  t.is(mails.length, 1);
  await sendBalanceAlert(mails[0] as never, app.deps);
  t.regex(await readFile(mailLog, 'utf8'), /Your balance auto-reload failed[\s\S]*card_declined/);

  t.is((await invoice(tenant)).status, 201);
  t.is((await invoice(tenant)).status, 201);
  t.is(await balanceOf(tenant), '0.00');
  const refused = await invoice(tenant);
  t.is(refused.status, 402);
  t.like(await readJson(refused), { code: 'INSUFFICIENT_BALANCE' });
  t.is(await balanceOf(tenant), '0.00');
  // No second reload was attempted below the threshold.
  t.is((await jobsOf('auto-reload-balance', tenant)).length, 1);
});
