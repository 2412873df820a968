import type { ChildProcess } from 'node:child_process';
import test from 'ava';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.js';
import { postJson, readJson } from '../helpers/http.js';
import { seedPlatformTenant, seedSubTenant } from '../helpers/identities.js';
import { BUYER_SIRET, SELLER_SIRET } from '../helpers/invoice-bodies.js';
import { startProcess, stopProcess, WORKER_MAIN } from '../helpers/processes.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { type Receiver, startReceiver } from '../helpers/webhook-receiver.js';

/**
 * The buyer accepts a quote on its public page in headless Chromium: the quote is `accepted` with
 * the typed name, the IP and the time, and `quote.accepted` reaches the tenant's webhook through a
 * real worker process.
 */
let app: TestApp;
let browser: Browser;
let receiver: Receiver;
let worker: ChildProcess;
test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0', ALLOW_PRIVATE_URLS: 'true' } });
  receiver = await startReceiver();
  browser = await launchBrowser();
  worker = (
    await startProcess(
      WORKER_MAIN,
      {
        DATABASE_URL: app.database.url,
        APP_KEY: app.deps.config.appKey!.toString('hex'),
        ALLOW_PRIVATE_URLS: 'true',
      },
      'ready',
    )
  ).child;
});
test.after.always(async () => {
  if (worker) await stopProcess(worker);
  await browser?.close();
  await receiver?.close();
  await app?.close();
});

test('the buyer accepts on the page: name, IP and time recorded, quote.accepted delivered', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const sub = await seedSubTenant(app.ownerDb, tenant.tenantId);
  const headers = { 'X-Tenant-Key': tenant.keys.sk_test };
  const put = await app.request('/api/v1/tenant/me', {
    method: 'PUT',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify({ webhook_url: `${receiver.url}/tenant` }),
  });
  t.is(put.status, 200);
  const base = `/api/v1/tenant/sub-tenants/${sub}/quotes`;
  const today = new Date().toISOString().slice(0, 10);
  const created = await readJson(
    await app.request(
      base,
      postJson(
        {
          issue_date: today,
          validity_date: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
          seller_siret: SELLER_SIRET,
          seller_name: 'Vendeur SAS',
          seller_address: { line1: '1 rue de la Paix', postal_code: '75002', city: 'Paris' },
          buyer_siret: BUYER_SIRET,
          buyer_name: 'Acheteur SARL',
          buyer_address: { line1: '10 avenue des Champs', postal_code: '69001', city: 'Lyon' },
          lines: [{ description: 'Audit <script>alert(1)</script>', quantity: 1, unit_price: 1500, tax_rate: 20 }],
        },
        headers,
      ),
    ),
  );
  const sent = await readJson(await app.request(`${base}/${created.data.id}/send`, postJson({}, headers)));
  const publicUrl: string = sent.data.public_url;
  const token = publicUrl.slice(publicUrl.lastIndexOf('/') + 1);

  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  await page.goto(`${app.url}/quote/${token}`);
  t.is(await page.locator('h1').textContent(), `Devis ${created.data.quote_number}`);
  t.regex(
    (await page.locator('table').textContent()) ?? '',
    /Audit <script>alert\(1\)<\/script>/,
    'escaped, shown as text',
  );
  await page.fill('#signer-name', 'Marie Curie');
  await page.fill('#signer-email', 'marie@example.com');
  await page.click('#accept');
  await page.waitForSelector('#status[data-status="accepted"]');
  t.deepEqual(errors, [], 'no script or CSP error');
  await page.close();

  const quote = (await readJson(await app.request(`${base}/${created.data.id}`, { headers }))).data;
  t.is(quote.status, 'accepted');
  t.is(quote.signature.signer_name, 'Marie Curie');
  t.is(quote.signature.signer_email, 'marie@example.com');
  t.is(quote.signature.ip, '127.0.0.1');
  t.regex(quote.signature.user_agent, /Chrome/);
  t.true(Math.abs(Date.parse(quote.signature.signed_at) - Date.now()) < 60_000);

  // Four events, delivered in any order: the acceptance's may come last, after the page closed.
  const deliveries = await receiver.received(4, 30_000);
  t.deepEqual(deliveries.map((r) => r.headers['x-service-event']).sort(), [
    'quote.accepted',
    'quote.created',
    'quote.sent',
    'quote.viewed',
  ]);
  const accepted = deliveries.map((r) => JSON.parse(r.rawBody)).find((e) => e.event === 'quote.accepted');
  t.truthy(accepted);
  t.is(accepted.data.id, created.data.id);
  t.is(accepted.data.status, 'accepted');
  t.is(accepted.data.signature.signer_name, 'Marie Curie');
});
