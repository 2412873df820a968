import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.js';
import { sendQueuedVerificationMails } from '../helpers/email-verification.js';
import { postJson, readJson } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let browser: Browser;
let mailLog: string;
test.before(async () => {
  mailLog = path.join(await mkdtemp(path.join(tmpdir(), 'mail-')), 'mail.log');
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0', MAIL_LOG: mailLog } });
  browser = await launchBrowser();
});
test.after.always(async () => {
  await browser?.close();
  await app?.close();
});

async function registerAndMail(): Promise<{ userId: string; link: string }> {
  const email = `page-${randomUUID()}@example.com`;
  const res = await app.request(
    '/api/v1/auth/register',
    postJson({ email, password: 'Sturdy password 42', first_name: 'Ada', last_name: 'Page', phone: '+33612345678' }),
  );
  const body = await readJson(res);
  if (res.status !== 201) throw new Error(`register: ${res.status} ${JSON.stringify(body)}`);
  await sendQueuedVerificationMails(app, body.user.id);
  const entry = (await readFile(mailLog, 'utf8')).split(/^={72}$/m).find((e) => e.includes(`To: ${email}\n`));
  const link = entry?.match(/^(https?:\/\/\S+\/verify-email\?\S+)$/m)?.[1];
  if (!link) throw new Error(`no verification link mailed to ${email}`);
  // The mail names PUBLIC_BASE_URL; the test app listens on a port of its own.
  const url = new URL(link);
  return { userId: body.user.id, link: `${app.url}${url.pathname}${url.search}` };
}

const verifiedAt = async (userId: string) =>
  (await app.ownerDb('users').where({ id: userId }).first<{ email_verified_at: Date | null }>()).email_verified_at;

test('the mailed link opens a page that confirms the address only when its button is pressed, under the CSP', async (t) => {
  const { userId, link } = await registerAndMail();
  const page = await browser.newPage();
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  const response = await page.goto(link);
  t.is(response?.status(), 200);
  t.truthy(response?.headers()['content-security-policy']);
  await page.waitForLoadState('networkidle');
  t.is(await verifiedAt(userId), null, 'opening the link (as a mail scanner would) confirms nothing');

  await page.getByRole('button', { name: 'Confirm my e-mail address' }).click();
  await page.getByText('Your e-mail address is confirmed.').waitFor();
  t.truthy(await verifiedAt(userId));
  t.deepEqual(violations, []);

  // The link works once: a second visit says so.
  const again = await browser.newPage();
  await again.goto(link);
  await again.getByRole('button', { name: 'Confirm my e-mail address' }).click();
  await again.getByText('already used').waitFor();
  t.pass();
});

test('a link without a token or with a forged one confirms nothing', async (t) => {
  const { userId, link } = await registerAndMail();
  const page = await browser.newPage();
  await page.goto(`${app.url}/verify-email`);
  t.true(await page.getByRole('button', { name: 'Confirm my e-mail address' }).isDisabled());

  const forged = new URL(link);
  const token = forged.searchParams.get('token')!;
  forged.searchParams.set('token', `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`);
  await page.goto(forged.toString());
  await page.getByRole('button', { name: 'Confirm my e-mail address' }).click();
  await page.getByText('invalid').waitFor();
  t.is(await verifiedAt(userId), null);
});
