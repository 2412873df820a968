import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import type { JobPayloads } from '../../domain/shared/queues.js';
import { verifyCompanyKyc } from '../../workers/handlers/verify-company-kyc.js';
import { mailedVerificationToken, sendQueuedVerificationMails } from '../helpers/email-verification.js';
import { seedPlatformTenant } from '../helpers/identities.js';
import { invoiceBody } from '../helpers/invoices.js';
import { waitFor } from '../helpers/processes.js';
import { queuedJobs } from '../helpers/seed.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The requests of docs/api/walkthroughs.md, sent through Stoplight Prism in proxy mode: Prism
 * forwards each one to the app and checks the request and the response against the OpenAPI
 * document the app serves, reporting what does not match in its `sl-violations` header. A
 * validator we did not write, on a document generated from our own schemas: a check that the
 * document describes what the API really answers (errors included), not only that it is valid.
 */

interface Violation {
  location: string[];
  severity: string;
  code: string | number;
  message: string;
}

interface Exchange {
  call: string;
  status: number;
  violations: Violation[];
}

let app: TestApp;
let prism: ChildProcess;
let prismUrl: string;
let workDir: string;
let mailLog: string;
let prismLog = '';
const exchanges: Exchange[] = [];

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test.before(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'prism-'));
  mailLog = path.join(workDir, 'mail.log');
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0', MAIL_LOG: mailLog } });
  const documentFile = path.join(workDir, 'openapi.json');
  await writeFile(documentFile, await (await app.request('/api/v1/openapi.json')).text());

  const prismCli = createRequire(import.meta.url).resolve('@stoplight/prism-cli/dist/index.js');
  const port = await freePort();
  prismUrl = `http://127.0.0.1:${port}`;
  prism = spawn(
    process.execPath,
    [prismCli, 'proxy', documentFile, app.url, '--host', '127.0.0.1', '--port', String(port), '--errors', 'false'],
    {
      env: { PATH: process.env.PATH ?? '', SCARF_ANALYTICS: 'false', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  prism.stdout?.on('data', (chunk) => {
    prismLog += chunk;
  });
  prism.stderr?.on('data', (chunk) => {
    prismLog += chunk;
  });
  await waitFor(async () => /listening/i.test(prismLog) || prism.exitCode !== null, 60_000);
  if (prism.exitCode !== null) throw new Error(`prism exited with ${prism.exitCode}:\n${prismLog}`);
});

test.after.always(async () => {
  if (prism && prism.exitCode === null) {
    const exited = new Promise((resolve) => prism.once('exit', resolve));
    prism.kill('SIGTERM');
    await exited;
  }
  await app?.close();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

/**
 * One request through Prism; its violations are kept for the final check. `invalid`: a request the
 * walkthrough sends wrong on purpose, whose own violations are expected (its response's are not).
 */
async function call(
  method: string,
  url: string,
  init: { headers?: Record<string, string>; body?: unknown; invalid?: boolean } = {},
) {
  const headers: Record<string, string> = { ...init.headers };
  let body: string | undefined;
  if (init.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(init.body);
  }
  const res = await fetch(`${prismUrl}${url}`, { method, headers, body });
  const header = res.headers.get('sl-violations');
  const violations = (header ? (JSON.parse(header) as Violation[]) : []).filter(
    (v) => !(init.invalid && v.location[0] === 'request'),
  );
  exchanges.push({ call: `${method} ${url}`, status: res.status, violations });
  const text = await res.text();
  // biome-ignore lint/suspicious/noExplicitAny: walkthrough answers are read loosely
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {}
  return { status: res.status, json, headers: res.headers };
}

const B = '/api/v1';

test.serial('walkthrough: health, pricing and the OpenAPI document', async (t) => {
  t.is((await call('GET', '/api/health')).status, 200);
  t.is((await call('GET', `${B}/pricing`)).status, 200);
  t.is((await call('GET', `${B}/openapi.json`)).status, 200);
});

test.serial('walkthrough: users, companies, keys, tenants and sub-tenants', async (t) => {
  const email = 'ada@example.com';
  const registered = await call('POST', `${B}/auth/register`, {
    body: { email, password: 'Correct-horse-42', first_name: 'Ada', last_name: 'Lovelace', phone: '+33612345678' },
  });
  t.is(registered.status, 201);
  const bearer = { Authorization: `Bearer ${registered.json.token}` };
  t.is((await call('GET', `${B}/auth/me`, { headers: bearer })).status, 200);
  t.is((await call('GET', `${B}/auth/me`, { invalid: true })).status, 401, 'no credentials');
  t.is((await call('POST', `${B}/auth/register`, { body: { email: 'not-an-email' }, invalid: true })).status, 422);

  // The link mailed to MAIL_LOG (the worker's job, worked here), then the token posted as the page does.
  const user = await app.ownerDb('users').where({ email }).first('id');
  await sendQueuedVerificationMails(app, user.id);
  const token = await mailedVerificationToken(mailLog, email);
  t.is((await call('POST', `${B}/auth/verify-email`, { body: { token } })).status, 200);

  const company = await call('POST', `${B}/companies`, {
    headers: bearer,
    body: {
      name: 'Acme SAS',
      siret: '73282932000074',
      address_line1: '1 rue de Rivoli',
      postal_code: '75001',
      city: 'Paris',
    },
  });
  t.is(company.status, 201);
  const companyId = company.json.data.id;
  t.true([200, 201, 202].includes((await call('POST', `${B}/companies/${companyId}/kyc`, { headers: bearer })).status));
  // The worker's job, worked here: the simulator approves the company.
  for (const job of await queuedJobs(app.ownerDb, 'verify-company-kyc')) {
    await verifyCompanyKyc(job as JobPayloads['verify-company-kyc'], app.deps);
  }
  const kyc = await call('GET', `${B}/companies/${companyId}/kyc/status`, { headers: bearer });
  t.is(kyc.json.data.status, 'completed');
  const key = await call('POST', `${B}/api-keys`, {
    headers: bearer,
    body: { name: 'prod', environment: 'production', company_id: companyId },
  });
  t.is(key.status, 201);
  t.is((await call('GET', `${B}/balance`, { headers: { 'X-API-Key': key.json.data.key } })).status, 200);

  const alpha = await seedPlatformTenant(app.ownerDb);
  const beta = await seedPlatformTenant(app.ownerDb);
  const pending = await seedPlatformTenant(app.ownerDb, { kyb: 'pending' });
  const sub = await call('POST', `${B}/tenant/sub-tenants`, {
    headers: { 'X-Tenant-Key': alpha.keys.sk_test },
    body: { external_id: 'client-1', name: 'Client One' },
  });
  t.is(sub.status, 201);
  const other = await call('GET', `${B}/tenant/sub-tenants/by-external-id/client-1`, {
    headers: { 'X-Tenant-Key': beta.keys.sk_test },
  });
  t.is(other.status, 404);
  t.is((await call('GET', `${B}/tenant/me`, { headers: { 'X-Tenant-Key': pending.keys.sk_live } })).status, 403);

  // The dashboard's cookie flow.
  const csrf = await call('GET', '/sanctum/csrf-cookie');
  t.is(csrf.status, 204);
  const xsrf = /XSRF-TOKEN=([^;]+)/.exec(csrf.headers.getSetCookie().join('\n'))?.[1] ?? '';
  const login = await call('POST', `${B}/auth/login`, {
    headers: { Cookie: `XSRF-TOKEN=${xsrf}`, 'X-XSRF-TOKEN': decodeURIComponent(xsrf) },
    body: { email, password: 'Correct-horse-42' },
  });
  t.is(login.status, 200);
  const session = /einvoice_session=([^;]+)/.exec(login.headers.getSetCookie().join('\n'))?.[1] ?? '';
  t.is((await call('GET', `${B}/auth/me`, { headers: { Cookie: `einvoice_session=${session}` } })).status, 200);

  t.is(
    (await call('POST', `${B}/auth/forgot-password`, { body: { email } })).status,
    200,
    'password reset: the mail goes to the log',
  );
});

test.serial(
  'walkthrough: an invoice, its Factur-X, its trail, its submission; a live key without balance',
  async (t) => {
    const tenant = await seedPlatformTenant(app.ownerDb);
    const sandbox = { 'X-API-Key': tenant.keys.sk_test };
    const created = await call('POST', `${B}/sandbox/invoices`, { headers: sandbox, body: invoiceBody() });
    t.is(created.status, 201);
    const id = created.json.data.id;
    t.is((await call('GET', `${B}/sandbox/invoices/${id}/download/facturx`, { headers: sandbox })).status, 200);
    t.is((await call('GET', `${B}/sandbox/invoices/${id}/audit-trail`, { headers: sandbox })).status, 200);
    t.is((await call('POST', `${B}/invoices/${id}/submit`, { headers: sandbox })).status, 200);
    t.is((await call('GET', `${B}/invoices/${id}`, { headers: sandbox })).status, 200);
    const refused = await call('POST', `${B}/invoices`, {
      headers: { 'X-API-Key': tenant.keys.sk_live },
      body: invoiceBody(),
    });
    t.is(refused.status, 402);
  },
);

test.serial(
  'Prism finds no request or response of the walkthroughs that the OpenAPI document does not describe',
  (t) => {
    const found = exchanges
      .filter((e) => e.violations.length)
      .map(
        (e) =>
          `${e.call} → ${e.status}: ${e.violations.map((v) => `[${v.location.join('.')}] ${v.message}`).join('; ')}`,
      );
    t.true(exchanges.length >= 20, `${exchanges.length} calls went through Prism`);
    t.deepEqual(found, []);
  },
);
