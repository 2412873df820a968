import type { ChildProcess } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.js';
import { postJson, readJson } from '../helpers/http.js';
import { type SeededUser, seedUser, seedUserKey } from '../helpers/identities.js';
import { minimalPdf } from '../helpers/minimal-pdf.js';
import { pdfText, run } from '../helpers/pdf-tools.js';
import { startProcess, stopProcess, WORKER_MAIN, waitFor } from '../helpers/processes.js';
import { stripeAccepts } from '../helpers/stripe-verifier.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { type Receiver, startReceiver } from '../helpers/webhook-receiver.js';

/**
 * The simulator's signing page in a real Chromium, with a real worker delivering the webhooks: a
 * sandbox signer enters 000000, draws a signature and signs (the request completes, its signed PDF
 * and proof file are made); another refuses with a reason.
 */
let app: TestApp;
let worker: ChildProcess;
let receiver: Receiver;
let browser: Browser;
let user: SeededUser;
let key: string;
let secret: string;
let dir: string;

test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0', ALLOW_PRIVATE_URLS: 'true' } });
  receiver = await startReceiver();
  worker = (
    await startProcess(
      WORKER_MAIN,
      {
        DATABASE_URL: app.database.url,
        APP_KEY: app.deps.config.appKey!.toString('hex'),
        ALLOW_PRIVATE_URLS: 'true',
        WORKER_SUPERVISE_SECONDS: '2',
      },
      'ready',
    )
  ).child;
  browser = await launchBrowser();
  user = await seedUser(app.ownerDb);
  key = await seedUserKey(app.ownerDb, user, { scopes: ['signatures'] });
  const endpoint = await app.request(
    '/api/v1/webhooks',
    postJson(
      {
        url: `${receiver.url}/hooks`,
        events: ['signature.created', 'signature.signed', 'signature.completed', 'signature.refused'],
        environment: 'sandbox',
      },
      { Authorization: `Bearer ${user.token}` },
    ),
  );
  const created = await readJson(endpoint);
  if (endpoint.status !== 201) throw new Error(`webhook endpoint: ${endpoint.status} ${JSON.stringify(created)}`);
  secret = created.data.secret;
  dir = await mkdtemp(path.join(tmpdir(), 'signing-page-'));
});
test.after.always(async () => {
  await browser?.close();
  if (worker) await stopProcess(worker);
  await receiver?.close();
  await app?.close();
});

// biome-ignore lint/suspicious/noExplicitAny: tests read bodies loosely
type Json = any;
const api = (p: string, init: RequestInit = {}) =>
  app.request(p, { ...init, headers: { 'X-API-Key': key, ...(init.headers ?? {}) } });
/** Links name PUBLIC_BASE_URL; the test app listens on a port of its own. */
const local = (url: string) => {
  const u = new URL(url);
  return `${app.url}${u.pathname}${u.search}`;
};

async function createRequest(signers: number, overrides: Record<string, unknown> = {}): Promise<Json> {
  const res = await api(
    '/api/v1/sandbox/signatures',
    postJson({
      title: 'Contrat de prestation',
      description: 'Merci de signer',
      document: minimalPdf().toString('base64'),
      document_name: 'contrat.pdf',
      signers: Array.from({ length: signers }, (_, i) => ({
        first_name: `Ada${i + 1}`,
        last_name: 'Lovelace',
        email: `signer${i + 1}@example.com`,
        auth_method: 'email',
      })),
      ui_config: { header_background_color: '#FFEEDD', company_name: 'ACME' },
      ...overrides,
    }),
  );
  const json = await readJson(res);
  if (res.status !== 201) throw new Error(`create: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

const read = async (id: string): Promise<Json> => (await readJson(await api(`/api/v1/sandbox/signatures/${id}`))).data;

async function openPage(url: string): Promise<{ page: Page; violations: string[] }> {
  const page = await browser.newPage();
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  const response = await page.goto(local(url));
  if (response?.status() !== 200) throw new Error(`signing page: ${response?.status()}`);
  return { page, violations };
}

async function enterCode(page: Page) {
  await page.getByRole('button', { name: 'Send me a code' }).click();
  await page.getByText('enter 000000').waitFor();
  await page.getByLabel('Code').fill('000000');
  await page.getByRole('button', { name: 'Confirm the code' }).click();
  await page.getByText('Code accepted.').waitFor();
}

async function download(id: string, type: string): Promise<string> {
  const link = await readJson(await api(`/api/v1/sandbox/signatures/${id}/download/${type}`));
  const res = await app.request(local(link.url).slice(app.url.length));
  if (res.status !== 200) throw new Error(`download ${type}: ${res.status}`);
  const file = path.join(dir, `${id}-${type}.pdf`);
  await writeFile(file, Buffer.from(await res.arrayBuffer()));
  return file;
}

/** The deliveries of one request's events, each checked by stripe's verifier, in order of their event's time. */
async function webhooksOf(id: string, count: number): Promise<string[]> {
  const got = await waitFor(async () => {
    const mine = receiver.requests.filter((r) => JSON.parse(r.rawBody).data?.id === id);
    return mine.length >= count ? mine : undefined;
  }, 30_000);
  for (const r of got) {
    if (!stripeAccepts(r.rawBody, String(r.headers['x-service-signature']), secret)) {
      throw new Error(`a delivery does not verify: ${r.rawBody}`);
    }
  }
  return got
    .map((r) => JSON.parse(r.rawBody))
    .sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp))
    .map((e) => e.event as string);
}

test('a sandbox signer enters 000000, draws a signature and signs: the request completes with a signed PDF and a proof', async (t) => {
  const request = await createRequest(1);
  const { page, violations } = await openPage(request.signers[0].signing_url);
  const csp = (await page.goto(local(request.signers[0].signing_url)))?.headers()['content-security-policy'];
  t.regex(csp ?? '', /frame-ancestors 'none'/);
  t.regex(csp ?? '', /script-src 'self'(;|$)/);
  await page.getByRole('heading', { name: 'Contrat de prestation' }).waitFor();

  await enterCode(page);
  await page.locator('#pad').scrollIntoViewIfNeeded();
  const box = (await page.locator('#pad').boundingBox())!;
  await page.mouse.move(box.x + 20, box.y + 100);
  await page.mouse.down();
  for (let i = 1; i <= 20; i++) await page.mouse.move(box.x + 20 + i * 15, box.y + 100 - Math.sin(i / 2) * 40);
  await page.mouse.up();
  const answer = page.waitForResponse((r) => r.url().endsWith('/sign') && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Sign the document' }).click();
  const signedResponse = await answer;
  t.is(signedResponse.status(), 200);
  await page.getByRole('heading', { name: 'Thank you, you have signed' }).waitFor();
  t.deepEqual(violations, []);

  const done = await read(request.id);
  t.is(done.status, 'completed');
  t.is(done.signers[0].status, 'signed');
  t.truthy(done.signers[0].signed_at);
  t.truthy(done.completed_at);

  const signed = await download(request.id, 'signed_pdf');
  const check = run('qpdf', ['--check', signed]);
  t.is(check.status, 0, check.stdout + check.stderr);
  const report = run('pdfsig', [signed]).stdout;
  t.regex(report, /Total document signed/);
  t.regex(report, /Signature is Valid/);
  const proof = pdfText(await download(request.id, 'proof'));
  for (const action of ['created', 'otp_sent', 'otp_verified', 'signed', 'completed'])
    t.true(proof.includes(action), action);
  t.true(proof.includes(request.id));

  const row = await app
    .ownerDb('signature_events')
    .where({ signature_request_id: request.id, action: 'signed' })
    .first();
  t.truthy(row.ip);
  t.regex(row.user_agent, /Chrome/);

  // The page of a finished request says so; an unknown token is a 404 page.
  const again = await browser.newPage();
  await again.goto(local(request.signers[0].signing_url));
  await again.getByRole('heading', { name: 'Thank you, you have signed' }).waitFor();
  const unknown = await again.goto(`${app.url}/sign/${'x'.repeat(43)}`);
  t.is(unknown?.status(), 404);

  t.deepEqual(await webhooksOf(request.id, 3), ['signature.created', 'signature.signed', 'signature.completed']);
});

test('two signers: the first types a name, the second draws; the request completes after the second', async (t) => {
  const request = await createRequest(2);
  const first = (await openPage(request.signers[0].signing_url)).page;
  await enterCode(first);
  await first.getByLabel('Type your full name').fill('Ada One Lovelace');
  await first.getByRole('button', { name: 'Sign the document' }).click();
  await first.getByRole('heading', { name: 'Thank you, you have signed' }).waitFor();
  const half = await read(request.id);
  t.is(half.status, 'pending');
  t.deepEqual(
    half.signers.map((s: Json) => s.status),
    ['signed', 'pending'],
  );

  const second = (await openPage(request.signers[1].signing_url)).page;
  await enterCode(second);
  await second.locator('#pad').scrollIntoViewIfNeeded();
  const box = (await second.locator('#pad').boundingBox())!;
  await second.mouse.move(box.x + 30, box.y + 60);
  await second.mouse.down();
  for (let i = 1; i <= 10; i++) await second.mouse.move(box.x + 30 + i * 25, box.y + 60 + (i % 2) * 30);
  await second.mouse.up();
  await second.getByRole('button', { name: 'Sign the document' }).click();
  await second.getByRole('heading', { name: 'Thank you, you have signed' }).waitFor();
  t.is((await read(request.id)).status, 'completed');

  const signed = await download(request.id, 'signed_pdf');
  t.regex(run('pdfsig', [signed]).stdout, /Total document signed/);
  t.true(pdfText(signed).includes('Ada One Lovelace'), 'the typed name is in the first block');
  t.deepEqual(await webhooksOf(request.id, 4), [
    'signature.created',
    'signature.signed',
    'signature.signed',
    'signature.completed',
  ]);
});

test('a signer refuses with a reason: the request is refused with it', async (t) => {
  const request = await createRequest(2, {
    ui_config: { iframe_ancestors: ['https://erp.example.com'] },
  });
  const { page, violations } = await openPage(request.signers[1].signing_url);
  await enterCode(page);
  await page.getByText('Refuse to sign').first().click();
  await page.getByLabel('Reason').fill('The amount is wrong.');
  await page.getByRole('button', { name: 'Refuse to sign' }).click();
  await page.getByRole('heading', { name: 'You refused to sign' }).waitFor();
  t.deepEqual(violations, []);

  const done = await read(request.id);
  t.is(done.status, 'refused');
  t.is(done.refusal_reason, 'The amount is wrong.');
  t.is(done.signers[1].status, 'refused');
  t.is(done.signers[0].status, 'pending');

  // The other signer's page now says the request is closed.
  const other = await browser.newPage();
  const response = await other.goto(local(request.signers[0].signing_url));
  t.regex(response?.headers()['content-security-policy'] ?? '', /frame-ancestors https:\/\/erp\.example\.com/);
  await other.getByRole('heading', { name: 'This request is refused' }).waitFor();

  t.deepEqual(await webhooksOf(request.id, 2), ['signature.created', 'signature.refused']);
});
