import { randomUUID } from 'node:crypto';
import test from 'ava';
import type { Environment } from '../../domain/shared/caller.js';
import { TENANT_KEY_SCOPES } from '../../domain/tenants/api-key.js';
import { insertApiKey } from '../../domain/tenants/api-key-store.js';
import { openWebhookSecret } from '../../domain/webhooks/webhook-secret.js';
import { deliverWebhook } from '../../workers/handlers/deliver-webhook.js';
import { dispatchEvent } from '../../workers/handlers/dispatch-event.js';
import { expectRefusal as refusal } from '../helpers/assertions.js';
import { readJson } from '../helpers/http.js';
import { type SeededTenant, seedPlatformTenant } from '../helpers/identities.js';
import { createInvoice } from '../helpers/invoices.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { emitEvent } from '../helpers/webhook-events.js';
import { type Receiver, startReceiver } from '../helpers/webhook-receiver.js';

/**
 * Sandbox and production never mix: a sandbox key reads and changes nothing of production (the
 * webhook URL and its secret, the delivery logs, invoices, keys, sub-tenants), and sandbox events
 * reach the sandbox URL only. A sub-tenant's key reads only its own sub-tenant's webhook logs.
 * Against the running app, with the webhook handlers called as the workers would call them and a
 * real receiver on 127.0.0.1 (ALLOW_PRIVATE_URLS).
 */
let app: TestApp;
let receiver: Receiver;
test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0', ALLOW_PRIVATE_URLS: 'true' } });
  receiver = await startReceiver(() => ({ status: 200, body: 'receiver said: thanks' }));
});
test.after.always(async () => {
  await receiver?.close();
  await app?.close();
});

const headers = (key: string) => ({ 'X-Tenant-Key': key, 'Content-Type': 'application/json' });
const call = (key: string, method: string, path: string, body?: unknown) =>
  app.request(`/api/v1${path}`, {
    method,
    headers: headers(key),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const setWebhook = async (key: string, url: string | null) =>
  readJson(await call(key, 'PUT', '/tenant/me', { webhook_url: url }));
const profileEndpoint = (tenantId: string, environment: Environment) =>
  app
    .ownerDb('webhook_endpoints')
    .where({ tenant_id: tenantId, kind: 'tenant_profile', environment })
    .whereNull('deleted_at')
    .first();
const secretOf = (row: { id: string; secret_encrypted: string }) =>
  openWebhookSecret(app.deps.config.appKey!, row.id, row.secret_encrypted);
const hookUrl = (name: string) => `${receiver.url}/${name}/${randomUUID()}`;
const receivedAt = (url: string) => receiver.requests.filter((r) => `${receiver.url}${r.path}` === url);

/** Emits an event and runs its dispatch and first delivery attempts as the workers would. */
async function deliverEvent(
  tenant: SeededTenant,
  environment: Environment,
  data: Record<string, unknown> = {},
): Promise<string> {
  const eventId = await emitEvent(app.deps, tenant.tenantId, environment, 'invoice.created', {
    id: randomUUID(),
    ...data,
  });
  await dispatchEvent({ eventId, tenantId: tenant.tenantId }, app.deps);
  for (const delivery of await app.ownerDb('webhook_deliveries').where({ event_id: eventId })) {
    await deliverWebhook({ tenantId: tenant.tenantId, deliveryId: delivery.id, attempt: 1 }, app.deps);
  }
  return eventId;
}

const logsOf = async (key: string) => readJson(await call(key, 'GET', '/tenant/webhook-logs'));

test("a sandbox key reads and changes the sandbox webhook only, never production's URL or secret", async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const liveUrl = hookUrl('live');
  const live = await setWebhook(tenant.keys.sk_live, liveUrl);
  const liveRow = await profileEndpoint(tenant.tenantId, 'production');
  t.is(secretOf(liveRow), live.data.webhook_secret);

  // Nothing set for sandbox yet: it reads an empty slot and has no secret to regenerate.
  const me = await readJson(await call(tenant.keys.sk_test, 'GET', '/tenant/me'));
  t.is(me.data.webhook_url, null);
  t.false(JSON.stringify(me).includes(liveUrl));
  await refusal(t, await call(tenant.keys.sk_test, 'POST', '/tenant/regenerate-webhook-secret'), 409, 'INVALID_STATE');

  const sandbox = await setWebhook(tenant.keys.sk_test, hookUrl('test'));
  t.regex(sandbox.data.webhook_secret, /^whsec_/);
  await setWebhook(tenant.keys.sk_test, hookUrl('test-moved'));
  const regenerated = await readJson(await call(tenant.keys.sk_test, 'POST', '/tenant/regenerate-webhook-secret'));
  t.not(regenerated.data.webhook_secret, live.data.webhook_secret);
  await setWebhook(tenant.keys.sk_test, null);

  const after = await profileEndpoint(tenant.tenantId, 'production');
  t.like(after, { id: liveRow.id, url: liveUrl, is_active: true, secret_encrypted: liveRow.secret_encrypted });
  t.is(secretOf(after), live.data.webhook_secret, "production's secret still signs production");
  t.is((await app.ownerDb('tenants').where({ id: tenant.tenantId }).first()).webhook_url, liveUrl);
  t.is((await readJson(await call(tenant.keys.sk_live, 'GET', '/tenant/me'))).data.webhook_url, liveUrl);
});

test('sandbox events go to the sandbox endpoint only, production events to production only', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const testUrl = hookUrl('test');
  const liveUrl = hookUrl('live');
  await setWebhook(tenant.keys.sk_test, testUrl);
  await setWebhook(tenant.keys.sk_live, liveUrl);

  const sandboxEvent = await deliverEvent(tenant, 'sandbox');
  const liveEvent = await deliverEvent(tenant, 'production');
  // A real sandbox invoice, through the outbox, as its dispatch job would send it.
  const invoice = await createInvoice(app.request, tenant.keys.sk_test);
  const invoiceEvent = await app
    .ownerDb('events')
    .where({ tenant_id: tenant.tenantId, name: 'invoice.created' })
    .whereRaw("data->>'id' = ?", [invoice.id]);
  t.is(invoiceEvent.length, 1);
  for (const event of invoiceEvent) {
    await dispatchEvent({ eventId: event.id, tenantId: tenant.tenantId }, app.deps);
    for (const delivery of await app.ownerDb('webhook_deliveries').where({ event_id: event.id })) {
      await deliverWebhook({ tenantId: tenant.tenantId, deliveryId: delivery.id, attempt: 1 }, app.deps);
    }
  }

  const bodies = (url: string) => receivedAt(url).map((r) => JSON.parse(r.rawBody));
  t.deepEqual(
    bodies(liveUrl).map((b) => b.id),
    [liveEvent],
    'production receives its own event only',
  );
  t.true(bodies(liveUrl).every((b) => b.environment === 'production'));
  t.deepEqual(
    bodies(testUrl)
      .map((b) => b.id)
      .sort(),
    [sandboxEvent, ...invoiceEvent.map((e) => e.id)].sort(),
  );
  t.true(bodies(testUrl).every((b) => b.environment === 'sandbox'));

  // With no sandbox URL, sandbox events go nowhere: never to production.
  await setWebhook(tenant.keys.sk_test, null);
  const orphan = await deliverEvent(tenant, 'sandbox');
  t.deepEqual(await app.ownerDb('webhook_deliveries').where({ event_id: orphan }), []);
  t.false(bodies(liveUrl).some((b) => b.id === orphan));
});

test("webhook logs follow the key's environment; a sub-tenant's key reads its own sub-tenant's only", async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  await setWebhook(tenant.keys.sk_test, hookUrl('test'));
  await setWebhook(tenant.keys.sk_live, hookUrl('live'));
  const [own, sibling] = await app
    .ownerDb('sub_tenants')
    .insert([
      { tenant_id: tenant.tenantId, environment: 'sandbox', name: 'Own' },
      { tenant_id: tenant.tenantId, environment: 'sandbox', name: 'Sibling' },
    ])
    .returning('id');
  const ownEvent = await deliverEvent(tenant, 'sandbox', { sub_tenant_id: own.id });
  const siblingEvent = await deliverEvent(tenant, 'sandbox', { sub_tenant_id: sibling.id });
  const tenantEvent = await deliverEvent(tenant, 'sandbox');
  const liveEvent = await deliverEvent(tenant, 'production');
  const eventsIn = async (key: string) =>
    (await logsOf(key)).data.map((log: { event_id: string; delivery_id: string }) => log.delivery_id);
  const deliveryOf = async (eventId: string) =>
    (await app.ownerDb('webhook_deliveries').where({ event_id: eventId }).first()).id;

  t.deepEqual(
    (await eventsIn(tenant.keys.sk_test)).sort(),
    (await Promise.all([ownEvent, siblingEvent, tenantEvent].map(deliveryOf))).sort(),
  );
  t.deepEqual(await eventsIn(tenant.keys.sk_live), [await deliveryOf(liveEvent)]);
  const sandboxLogs = JSON.stringify(await logsOf(tenant.keys.sk_test));
  t.false(sandboxLogs.includes(await deliveryOf(liveEvent)), "production's receiver answers stay in production");

  const bound = await insertApiKey(app.ownerDb, tenant.tenantId, {
    name: 'own',
    kind: 'secret',
    environment: 'sandbox',
    scopes: TENANT_KEY_SCOPES,
    subTenantId: own.id,
  });
  t.deepEqual(await eventsIn(bound.key), [await deliveryOf(ownEvent)]);
  // The tenant-wide webhook itself is not a sub-tenant's to change or regenerate.
  await refusal(t, await call(bound.key, 'POST', '/tenant/regenerate-webhook-secret'), 403, 'FORBIDDEN');
  await refusal(t, await call(bound.key, 'PUT', '/tenant/me', { webhook_url: hookUrl('x') }), 403, 'FORBIDDEN');
});

test('a sandbox key reads nothing of production: invoices, keys, sub-tenants, fiscal entries', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  await app.ownerDb('balances').where({ tenant_id: tenant.tenantId }).update({ amount: '10.00' });
  const liveInvoice = await createInvoice(app.request, tenant.keys.sk_live, {}, '/api/v1/tenant/invoices');
  const [liveSub] = await app
    .ownerDb('sub_tenants')
    .insert({ tenant_id: tenant.tenantId, environment: 'production', name: 'Live', external_id: 'live-1' })
    .returning('id');
  const test_ = tenant.keys.sk_test;

  await refusal(t, await call(test_, 'GET', `/invoices/${liveInvoice.id}`), 404, 'NOT_FOUND');
  const invoices = await readJson(await call(test_, 'GET', '/invoices'));
  t.false(invoices.data.some((i: { id: string }) => i.id === liveInvoice.id));
  await refusal(t, await call(test_, 'GET', `/tenant/sub-tenants/${liveSub.id}`), 404, 'NOT_FOUND');
  await refusal(t, await call(test_, 'GET', '/tenant/sub-tenants/by-external-id/live-1'), 404, 'NOT_FOUND');
  await refusal(t, await call(test_, 'PUT', `/tenant/sub-tenants/${liveSub.id}`, { name: 'x' }), 404, 'NOT_FOUND');
  await refusal(t, await call(test_, 'DELETE', `/tenant/sub-tenants/${liveSub.id}`), 404, 'NOT_FOUND');
  const keys = await readJson(await call(test_, 'GET', '/tenant/auth/keys'));
  t.true(keys.data.every((k: { environment: string }) => k.environment === 'sandbox'));
  t.false(keys.data.some((k: { prefix: string }) => k.prefix === tenant.keys.sk_live.slice(0, 12)));
  const entries = await readJson(await call(test_, 'GET', '/tenant/fiscal/entries'));
  t.false(JSON.stringify(entries).includes(liveInvoice.id));
  // Keys it makes are sandbox keys, whatever it asks.
  const made = await readJson(await call(test_, 'POST', '/tenant/auth/keys/secret', {}));
  t.regex(made.data.key, /^sk_test_/);
  await refusal(
    t,
    await app.request(`/api/v1/invoices/${liveInvoice.id}`, { headers: { 'X-API-Key': made.data.key } }),
    404,
    'NOT_FOUND',
  );
});
