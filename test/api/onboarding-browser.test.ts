import type { ChildProcess } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.js';
import { readJson } from '../helpers/http.js';
import { seedPlatformTenant } from '../helpers/identities.js';
import { freshSiret } from '../helpers/onboarding.js';
import { startProcess, stopProcess, WORKER_MAIN } from '../helpers/processes.js';
import { constructEvent } from '../helpers/stripe-verifier.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { type Receiver, startReceiver } from '../helpers/webhook-receiver.js';

/**
 * The partner's side of onboarding in a real browser (headless Chromium): a partner page on its own
 * loopback origin opens the popup, the onboarding simulator's authorization page creates the
 * account, our callback page posts its message to the opener and closes, the partner page finishes,
 * and the partner's backend exchanges the code for a key that works. A real worker process delivers
 * `onboarding.completed` to the partner's webhook receiver, checked with the `stripe` package.
 */

async function listen(server: Server, port = 0): Promise<number> {
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** A free port for the service, so that PUBLIC_BASE_URL can name it before it starts. */
async function freePort(): Promise<number> {
  const probe = createServer();
  const port = await listen(probe);
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

const bodyOf = async (req: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

interface Partner {
  origin: string;
  /** What the partner's backend got from each exchange. */
  exchanged: Array<Record<string, string>>;
  close(): Promise<void>;
}

/**
 * The partner: a page (its own script, inline, as a partner's site may have) and a backend route
 * that exchanges the code server to server, on `port` (the origin CORS_ORIGINS allows). `variant`
 * picks the partner or the tenant routes.
 */
async function startPartner(
  api: string,
  publishableKey: string,
  variant: 'partner' | 'tenant',
  port: number,
  /** The session's callback_url; the partner page's own origin by default. */
  callbackUrl?: string,
): Promise<Partner> {
  const base = variant === 'partner' ? '/api/v1/onboarding' : '/api/v1/tenant/onboarding';
  const exchanged: Array<Record<string, string>> = [];
  const page = `<!doctype html>
<html><head><meta charset="utf-8"><title>Partner</title></head>
<body>
<button id="connect">Connect your e-invoicing account</button>
<p id="result"></p>
<script>
const API = ${JSON.stringify(api)};
const PK = ${JSON.stringify(publishableKey)};
const CALLBACK_URL = ${JSON.stringify(callbackUrl ?? null)};
window.received = 0;
const call = (path, body) => fetch(API + ${JSON.stringify(base)} + path, {
  method: 'POST',
  headers: { 'Content-Type': 'application/json', 'X-Publishable-Key': PK },
  body: JSON.stringify(body),
}).then((r) => r.json());
document.getElementById('connect').addEventListener('click', async () => {
  const popup = window.open('about:blank', 'onboarding', 'width=520,height=720');
  const session = (await call('/sessions', { mode: 'embedded', external_id: 'crm-7', callback_url: CALLBACK_URL || location.origin + '/done' })).data;
  const authorize = await call('/superpdp/authorize', { session_id: session.id });
  window.addEventListener('message', async (event) => {
    if (event.origin !== API || !event.data || event.data.type !== 'einvoice:onboarding') return;
    window.received += 1;
    if (event.data.error) { document.getElementById('result').textContent = 'Refused: ' + event.data.error; return; }
    const done = await call('/superpdp/callback', { session_id: event.data.session_id, code: event.data.code, state: event.data.state });
    const code = done.data ? done.data.authorization_code : done.authorization_code;
    const keys = await fetch('/backend/exchange', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ session_id: session.id, authorization_code: code }),
    }).then((r) => r.json());
    document.getElementById('result').textContent = 'Connected: ' + (keys.tenant_id || keys.sub_tenant_id);
  });
  popup.location.href = (authorize.data || authorize).authorize_url;
});
</script>
</body></html>`;
  const server = createServer(async (req, res) => {
    if (req.method === 'POST' && req.url === '/backend/exchange') {
      const { session_id, authorization_code } = JSON.parse(await bodyOf(req));
      const answer = await fetch(`${api}${base}/exchange`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          ...(variant === 'tenant' ? { 'X-Publishable-Key': publishableKey } : {}),
        },
        body: JSON.stringify(
          variant === 'partner'
            ? { publishable_key: publishableKey, authorization_code }
            : { session_id, authorization_code },
        ),
      });
      const { data } = await readJson(answer);
      exchanged.push(data);
      res.writeHead(answer.status, { 'Content-Type': 'application/json' });
      // The key stays on the partner's backend: the page learns only the id.
      res.end(JSON.stringify({ tenant_id: data?.tenant_id, sub_tenant_id: data?.sub_tenant_id }));
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(page);
  });
  await listen(server, port);
  return {
    origin: `http://127.0.0.1:${port}`,
    exchanged,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let app: TestApp;
let browser: Browser;
let worker: ChildProcess;
let partnerServer: Server;
let partnerPort: number;
test.before(async () => {
  // The partner pages' origins must be allowed by CORS before the app starts: reserve their ports.
  partnerServer = createServer();
  partnerPort = await listen(partnerServer);
  await new Promise<void>((resolve) => partnerServer.close(() => resolve()));
  const port = await freePort();
  app = await startTestApp({
    port,
    env: {
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      CORS_ORIGINS: `http://127.0.0.1:${partnerPort}`,
      ALLOW_PRIVATE_URLS: 'true',
      RATE_LIMIT_SCALE: '0',
    },
  });
  worker = (
    await startProcess(
      WORKER_MAIN,
      {
        DATABASE_URL: app.database.url,
        APP_KEY: app.deps.config.appKey!.toString('hex'),
        ALLOW_PRIVATE_URLS: 'true',
        PUBLIC_BASE_URL: app.url,
      },
      'ready',
    )
  ).child;
  browser = await launchBrowser();
});
test.after.always(async () => {
  await browser?.close();
  if (worker) await stopProcess(worker);
  await app?.close();
});

async function webhookSecretFor(sk: string, receiver: Receiver): Promise<string> {
  const res = await fetch(`${app.url}/api/v1/tenant/me`, {
    method: 'PUT',
    headers: { 'X-Tenant-Key': sk, 'Content-Type': 'application/json' },
    body: JSON.stringify({ webhook_url: `${receiver.url}/hooks` }),
  });
  const body = await readJson(res);
  if (res.status !== 200) throw new Error(JSON.stringify(body));
  return body.data.webhook_secret;
}

async function runPopupFlow(partner: Partner, company: { name: string; siret: string; email: string }) {
  const page = await browser.newPage();
  const violations: string[] = [];
  try {
    await page.goto(`${partner.origin}/`);
    const popupOpened = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Connect your e-invoicing account' }).click();
    const popup = await popupOpened;
    popup.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await popup.waitForURL(/\/simulator\/superpdp\/oauth2\/authorize\?/);
    await popup.getByLabel('Company name').fill(company.name);
    await popup.getByLabel('SIRET').fill(company.siret);
    await popup.getByLabel('E-mail').fill(company.email);
    const closed = popup.waitForEvent('close', { timeout: 20_000 });
    await popup.getByRole('button', { name: 'Approve' }).click();
    await closed;
    await page.getByText(/^Connected: [0-9a-f-]{36}$/).waitFor({ timeout: 20_000 });
    return { result: (await page.locator('#result').textContent()) ?? '', violations };
  } finally {
    await page.close();
  }
}

test.serial(
  'partner flow in a browser: popup, simulator, callback message, exchange, a working sandbox key, a verified webhook',
  async (t) => {
    const partnerTenant = await seedPlatformTenant(app.ownerDb, { partner: true });
    const receiver = await startReceiver();
    const partner = await startPartner(app.url, partnerTenant.keys.pk_test, 'partner', partnerPort);
    try {
      const secret = await webhookSecretFor(partnerTenant.keys.sk_test, receiver);
      const siret = freshSiret();
      const { result, violations } = await runPopupFlow(partner, {
        name: 'Atelier Lumière',
        siret,
        email: 'owner@atelier.example',
      });
      t.deepEqual(violations, [], 'the popup pages run under our CSP without a violation');
      const tenantId = result.replace('Connected: ', '');
      t.is(partner.exchanged.length, 1);
      const credentials = partner.exchanged[0];
      t.is(credentials.tenant_id, tenantId);
      t.is(credentials.environment, 'sandbox');
      t.regex(credentials.api_key, /^sk_test_/);

      // A real API call with the new key.
      const me = await fetch(`${app.url}/api/v1/tenant/auth/me`, { headers: { 'X-API-Key': credentials.api_key } });
      t.is(me.status, 200);
      t.like((await readJson(me)).data, { id: tenantId, name: 'Atelier Lumière', siret });
      t.like(await app.ownerDb('tenants').where({ id: tenantId }).first(), {
        parent_tenant_id: partnerTenant.tenantId,
      });

      const [delivery] = await receiver.received(1);
      t.is(delivery.headers['x-service-event'], 'onboarding.completed');
      const event = constructEvent(delivery.rawBody, String(delivery.headers['x-service-signature']), secret) as {
        event: string;
        data: Record<string, unknown>;
      };
      t.is(event.event, 'onboarding.completed');
      t.like(event.data, { tenant_id: tenantId, external_id: 'crm-7', environment: 'sandbox' });
    } finally {
      await partner.close();
      await receiver.close();
    }
  },
);

test.serial('sub-tenant flow in a browser: the tenant routes give a key bound to the new sub-tenant', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const receiver = await startReceiver();
  const partner = await startPartner(app.url, tenant.keys.pk_test, 'tenant', partnerPort);
  try {
    const secret = await webhookSecretFor(tenant.keys.sk_test, receiver);
    const { result, violations } = await runPopupFlow(partner, {
      name: 'Fromagerie Bernard',
      siret: freshSiret(),
      email: 'owner@fromagerie.example',
    });
    t.deepEqual(violations, []);
    const subTenantId = result.replace('Connected: ', '');
    const credentials = partner.exchanged[0];
    t.is(credentials.sub_tenant_id, subTenantId);
    t.like(await app.ownerDb('sub_tenants').where({ id: subTenantId }).first(), {
      tenant_id: tenant.tenantId,
      name: 'Fromagerie Bernard',
      external_id: 'crm-7',
    });
    // The key is bound to the sub-tenant: it sees that sub-tenant only.
    const listed = await fetch(`${app.url}/api/v1/tenant/sub-tenants`, {
      headers: { 'X-API-Key': credentials.api_key },
    });
    t.is(listed.status, 200);
    t.deepEqual(
      (await readJson(listed)).data.map((s: { id: string }) => s.id),
      [subTenantId],
    );

    const [delivery] = await receiver.received(1);
    const event = constructEvent(delivery.rawBody, String(delivery.headers['x-service-signature']), secret) as {
      event: string;
      data: Record<string, unknown>;
    };
    t.is(event.event, 'onboarding.completed');
    t.like(event.data, { sub_tenant_id: subTenantId, variant: 'tenant' });
  } finally {
    await partner.close();
    await receiver.close();
  }
});

test.serial(
  "the callback page posts only to the session's callback_url origin: another page gets nothing",
  async (t) => {
    const partnerTenant = await seedPlatformTenant(app.ownerDb, { partner: true });
    // The session names another site: the page that opened the popup is not it.
    const partner = await startPartner(
      app.url,
      partnerTenant.keys.pk_test,
      'partner',
      partnerPort,
      'https://elsewhere.example/done',
    );
    const page = await browser.newPage();
    try {
      await page.goto(`${partner.origin}/`);
      const popupOpened = page.waitForEvent('popup');
      await page.getByRole('button', { name: 'Connect your e-invoicing account' }).click();
      const popup = await popupOpened;
      await popup.waitForURL(/\/simulator\/superpdp\/oauth2\/authorize\?/);
      await popup.getByLabel('Company name').fill('Ailleurs SARL');
      await popup.getByLabel('SIRET').fill(freshSiret());
      await popup.getByLabel('E-mail').fill('owner@ailleurs.example');
      const closed = popup.waitForEvent('close', { timeout: 20_000 });
      await popup.getByRole('button', { name: 'Approve' }).click();
      await closed;
      await page.waitForTimeout(500);
      t.is(await page.evaluate('window.received'), 0, 'no message reached the page');
      t.is(await page.locator('#result').textContent(), '');
      t.is(partner.exchanged.length, 0);
      t.is(
        Number(
          (
            await app
              .ownerDb('tenants')
              .where({ parent_tenant_id: partnerTenant.tenantId })
              .count<{ count: string }[]>('* as count')
          )[0].count,
        ),
        0,
        'nothing finished the onboarding',
      );
    } finally {
      await page.close();
      await partner.close();
    }
  },
);
