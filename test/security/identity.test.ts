import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { LOGIN_FAILURES_PER_HOUR } from '../../domain/auth/login-throttle.js';
import { signToken } from '../../domain/auth/signed-token.js';
import { issueEmailVerificationToken } from '../../domain/users/email-verification.js';
import { issueOAuthState } from '../../domain/users/oauth-state.js';
import { sendPasswordReset } from '../../workers/handlers/send-password-reset.js';
import { expectInvalid, expectRefusal } from '../helpers/assertions.js';
import { cookieNamed } from '../helpers/cookies.js';
import {
  mailedVerificationToken,
  sendQueuedVerificationMails,
  verifyThroughMail,
} from '../helpers/email-verification.js';
import { postJson, readJson } from '../helpers/http.js';
import { PASSWORD, seedUser, seedVerifiedCompany } from '../helpers/identities.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let mailLog: string;
test.before(async () => {
  mailLog = path.join(await mkdtemp(path.join(tmpdir(), 'mail-')), 'mail.log');
  app = await startTestApp({
    env: { RATE_LIMIT_SCALE: '0', MAIL_LOG: mailLog, PUBLIC_BASE_URL: 'https://app.example.com/' },
  });
});
test.after.always(() => app?.close());

const STRONG = 'Sturdy password 42';
const newEmail = (tag: string) => `${tag}-${randomUUID()}@example.com`;
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const local = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

async function register(email: string) {
  const res = await app.request(
    '/api/v1/auth/register',
    postJson({ email, password: STRONG, first_name: 'Eve', last_name: 'Early', phone: '+33 6 12 34 56 78' }),
  );
  const body = await readJson(res);
  if (res.status !== 201) throw new Error(`register: ${res.status} ${JSON.stringify(body)}`);
  return { userId: body.user.id as string, email, token: body.token as string, user: body.user };
}

const login = (email: string, password: string) => app.request('/api/v1/auth/login', postJson({ email, password }));
const me = (token: string) => app.request('/api/v1/auth/me', { headers: bearer(token) });
const createKey = (token: string, body: Record<string, unknown>) =>
  app.request('/api/v1/api-keys', postJson({ name: 'key', ...body }, bearer(token)));
const verify = (token: string) => app.request('/api/v1/auth/verify-email', postJson({ token }));

/** A browser starting "Sign in with Google": its cookie, and the callback the simulator sends it back to. */
async function googleSignIn(t: ExecutionContext, email: string): Promise<{ cookie: string; callback: string }> {
  const start = await app.request('/api/v1/auth/google');
  t.is(start.status, 200);
  const set = cookieNamed(start, 'einvoice_oauth_nonce');
  t.truthy(set, 'GET /auth/google binds the sign-in to this browser');
  const { url } = await readJson(start);
  const params = new URL(url).searchParams;
  const approve = new URLSearchParams({
    state: params.get('state')!,
    redirect_uri: params.get('redirect_uri')!,
    email,
  });
  const redirect = await app.request(`/simulator/google/approve?${approve}`, { redirect: 'manual' });
  t.is(redirect.status, 302);
  return { cookie: `einvoice_oauth_nonce=${set!.value}`, callback: local(redirect.headers.get('location')!) };
}

// ---- account pre-hijacking ----------------------------------------------------------------------

test('pre-hijack: the address owner signing in with Google takes an unverified account over; the registrant loses every access', async (t) => {
  const victim = newEmail('victim');
  // The attacker registers the victim's address first, keeps a token, a sandbox key and a webhook.
  const attacker = await register(victim);
  t.is(attacker.user.email_verified_at, null);
  const sandbox = await readJson(await createKey(attacker.token, { environment: 'sandbox' }));
  t.regex(sandbox.data.key, /^sk_test_/);
  const browserLogin = await app.request(
    '/api/v1/auth/login',
    postJson({ email: victim, password: STRONG }, { Cookie: 'XSRF-TOKEN=abc', 'X-XSRF-TOKEN': 'abc' }),
  );
  const session = cookieNamed(browserLogin, 'einvoice_session')!.value;
  const tenantId = (await app.ownerDb('users').where({ id: attacker.userId }).first()).tenant_id;
  await app.ownerDb('webhook_endpoints').insert({
    id: randomUUID(),
    tenant_id: tenantId,
    url: 'https://attacker.example/hook',
    events: ['invoice.created'],
    environment: 'production',
    secret_encrypted: 'x',
    secret_last4: 'xxxx',
    created_at: new Date(),
    updated_at: new Date(),
  });

  // The victim signs in with Google (which proves the address), from the victim's own browser.
  const { cookie, callback } = await googleSignIn(t, victim);
  const signedIn = await app.request(callback, { headers: { Cookie: cookie } });
  t.is(signedIn.status, 200);
  const body = await readJson(signedIn);
  t.is(body.user.id, attacker.userId, 'the account is linked, not duplicated');
  t.truthy(body.user.email_verified_at);
  t.is(cookieNamed(signedIn, 'einvoice_oauth_nonce')?.value, '', 'the sign-in cookie is spent');

  // The attacker's password, token, cookie session and API key no longer work.
  await expectInvalid(t, await login(victim, STRONG), 'email');
  await expectRefusal(t, await me(attacker.token), 401, 'UNAUTHENTICATED');
  t.is((await app.request('/api/v1/auth/me', { headers: { Cookie: `einvoice_session=${session}` } })).status, 401);
  const keyed = await app.request('/api/v1/balance', { headers: { 'X-API-Key': sandbox.data.key } });
  t.is(keyed.status, 401);
  const row = await app.ownerDb('users').where({ id: attacker.userId }).first();
  t.is(row.password_hash, null);
  const hook = await app.ownerDb('webhook_endpoints').where({ tenant_id: tenantId }).first();
  t.false(hook.is_active, "the registrant's webhook no longer receives the account's events");

  // The victim's own token works, and the account can now hold production keys.
  t.is((await me(body.token)).status, 200);
  const companyId = await seedVerifiedCompany(app.ownerDb, tenantId);
  t.is((await createKey(body.token, { environment: 'production', company_id: companyId })).status, 201);
});

test('Google sign-in links a verified account as before: its password keeps working', async (t) => {
  const user = await seedUser(app.ownerDb);
  const { cookie, callback } = await googleSignIn(t, user.email);
  t.is((await app.request(callback, { headers: { Cookie: cookie } })).status, 200);
  t.is((await login(user.email, PASSWORD)).status, 200);
  t.is((await me(user.token)).status, 200);
});

test('an account created by Google sign-in is verified', async (t) => {
  const { cookie, callback } = await googleSignIn(t, newEmail('google'));
  const body = await readJson(await app.request(callback, { headers: { Cookie: cookie } }));
  t.truthy(body.user.email_verified_at);
});

// ---- e-mail verification ------------------------------------------------------------------------

test('register mails a verification link; following it verifies the account, once', async (t) => {
  const user = await register(newEmail('verify'));
  t.is(user.user.email_verified_at, null);
  t.is(await sendQueuedVerificationMails(app, user.userId), 1, 'registration queued one mail');
  const token = await mailedVerificationToken(mailLog, user.email);
  t.truthy(token);
  const res = await verify(token!);
  t.is(res.status, 200);
  t.is(typeof (await readJson(res)).message, 'string');
  const { data } = await readJson(await me(user.token));
  t.truthy(data.email_verified_at);

  // Replayed: refused.
  const replay = await expectInvalid(t, await verify(token!), 'token');
  t.regex(replay.message, /invalid, has expired or was already used/);
});

test('a forged, altered, expired or other-purpose verification token is refused (422 token)', async (t) => {
  const user = await register(newEmail('forged'));
  await sendQueuedVerificationMails(app, user.userId);
  const genuine = (await mailedVerificationToken(mailLog, user.email))!;
  const tenantId = (await app.ownerDb('users').where({ id: user.userId }).first()).tenant_id;
  const claims = { id: user.userId, tenantId, email: user.email };
  const key = app.deps.config.appKey;
  const [body, mac] = genuine.split('.');
  const other = await register(newEmail('other'));
  const altered = `${Buffer.from(JSON.stringify({ uid: other.userId, tid: tenantId, email: other.email, exp: 9999999999 })).toString('base64url')}.${mac}`;
  const cases = [
    issueEmailVerificationToken(Buffer.alloc(32, 1), new Date(), claims).token, // another key
    issueEmailVerificationToken(key, new Date(Date.now() - 25 * 3600_000), claims).token, // expired
    signToken(
      { key, purpose: 'google-oauth-state', now: new Date() },
      { uid: user.userId, tid: tenantId, email: user.email },
      600,
    ),
    issueOAuthState(key, new Date()),
    altered,
    `${body}.`,
    'garbage',
  ];
  for (const token of cases) await expectInvalid(t, await verify(token), 'token');
  t.is((await app.ownerDb('users').where({ id: user.userId }).first()).email_verified_at, null);
  t.is((await app.ownerDb('users').where({ id: other.userId }).first()).email_verified_at, null);
  t.is((await verify(genuine)).status, 200, 'the genuine token still works');
});

test('an unverified user cannot create a production key (403 EMAIL_NOT_VERIFIED); sandbox keys work; once verified it can', async (t) => {
  const user = await register(newEmail('keys'));
  const tenantId = (await app.ownerDb('users').where({ id: user.userId }).first()).tenant_id;
  const companyId = await seedVerifiedCompany(app.ownerDb, tenantId);
  const refused = await expectRefusal(
    t,
    await createKey(user.token, { environment: 'production', company_id: companyId }),
    403,
    'EMAIL_NOT_VERIFIED',
  );
  t.regex(refused.message, /verify-email\/resend/);
  t.is(
    await app
      .ownerDb('api_keys')
      .where({ user_id: user.userId })
      .count({ n: '*' })
      .then((r) => Number(r[0].n)),
    0,
  );
  t.is((await createKey(user.token, { environment: 'sandbox' })).status, 201);
  t.is((await verifyThroughMail(app, mailLog, user)).status, 200);
  t.is((await createKey(user.token, { environment: 'production', company_id: companyId })).status, 201);
});

test('resend: authenticated; queues one mail a minute at most; nothing once verified', async (t) => {
  const user = await register(newEmail('resend'));
  const resend = (headers: Record<string, string>) =>
    app.request('/api/v1/auth/verify-email/resend', postJson({}, headers));
  await expectRefusal(t, await resend({}), 401, 'UNAUTHENTICATED');
  t.is((await resend(bearer(user.token))).status, 200);
  t.is((await resend(bearer(user.token))).status, 200);
  t.is(await sendQueuedVerificationMails(app, user.userId), 1, 'the registration mail and two resends: one job');
  t.is((await verifyThroughMail(app, mailLog, user)).status, 200);
  const done = await readJson(await resend(bearer(user.token)));
  t.regex(done.message, /already confirmed/);
});

test('a password reset proves the address: the account becomes verified, and an unproven registrant loses its keys', async (t) => {
  // Someone registered the address and made a key; the address's owner resets the password.
  const registrant = await register(newEmail('reset'));
  const sandbox = await readJson(await createKey(registrant.token, { environment: 'sandbox' }));
  t.is((await app.request('/api/v1/auth/forgot-password', postJson({ email: registrant.email }))).status, 200);
  const { rows } = await app.ownerDb.raw<{ rows: { data: { tenantId: string; userId: string } }[] }>(
    "select data from pgboss.job where name = 'send-password-reset' and data->>'userId' = ?",
    [registrant.userId],
  );
  await sendPasswordReset(rows[0].data, app.deps);
  const links = [...(await readFile(mailLog, 'utf8')).matchAll(/^(https:\/\/\S+\/reset-password\?\S+)$/gm)]
    .map((m) => new URL(m[1]))
    .filter((url) => url.searchParams.get('email') === registrant.email);
  const token = links.at(-1)!.searchParams.get('token')!;
  const password = 'Brand new secret 2026';
  const res = await app.request(
    '/api/v1/auth/reset-password',
    postJson({ token, email: registrant.email, password, password_confirmation: password }),
  );
  t.is(res.status, 200);
  t.truthy((await app.ownerDb('users').where({ id: registrant.userId }).first()).email_verified_at);
  t.is((await me(registrant.token)).status, 401);
  t.is((await app.request('/api/v1/balance', { headers: { 'X-API-Key': sandbox.data.key } })).status, 401);
  t.is((await login(registrant.email, password)).status, 200);
});

// ---- Google state bound to the browser ----------------------------------------------------------

test("Google callback: a state not bound to this browser is refused (login CSRF with the attacker's callback URL)", async (t) => {
  // The attacker starts a sign-in to the attacker's own Google account and stops at the callback URL.
  const attacker = await googleSignIn(t, newEmail('csrf-attacker'));
  const victimBrowser = await app.request('/api/v1/auth/google');
  const victimCookie = `einvoice_oauth_nonce=${cookieNamed(victimBrowser, 'einvoice_oauth_nonce')!.value}`;
  for (const headers of [{}, { Cookie: victimCookie }, { Cookie: 'einvoice_oauth_nonce=' }]) {
    const res = await app.request(attacker.callback, { headers });
    await expectRefusal(t, res, 401, 'UNAUTHENTICATED');
    t.is(cookieNamed(res, 'einvoice_session'), undefined);
  }
  // The browser that started it is signed in.
  t.is((await app.request(attacker.callback, { headers: { Cookie: attacker.cookie } })).status, 200);
});

test('the Google sign-in cookie is HttpOnly, Secure, SameSite=Lax, scoped to the Google routes, short-lived', async (t) => {
  const res = await app.request('/api/v1/auth/google');
  const cookie = cookieNamed(res, 'einvoice_oauth_nonce')!;
  t.true(cookie.attributes.httponly);
  t.true(cookie.attributes.secure);
  t.is(String(cookie.attributes.samesite).toLowerCase(), 'lax');
  t.is(cookie.attributes.path, '/api/v1/auth/google');
  t.true(Date.parse(String(cookie.attributes.expires)) <= Date.now() + 601_000);
  t.regex(cookie.value, /^[\w-]{22}$/);
});

// ---- login throttle -----------------------------------------------------------------------------

test.serial(
  '20 parallel wrong logins for one account: only the throttle allowance is checked, the rest get 429',
  async (t) => {
    // The per-IP limit of the sign-in routes is raised out of the way: this is about the throttle.
    const throttled = await startTestApp({
      env: { RATE_LIMITS: JSON.stringify({ credentials: { per_minute: 1000 } }) },
    });
    try {
      const user = await seedUser(throttled.ownerDb);
      for (const route of ['/api/v1/auth/login'] as const) {
        const responses = await Promise.all(
          Array.from({ length: 20 }, () =>
            throttled.request(route, postJson({ email: user.email, password: 'wrong!' })),
          ),
        );
        const statuses = responses.map((r) => r.status);
        t.is(statuses.filter((s) => s === 422).length, LOGIN_FAILURES_PER_HOUR, statuses.join(','));
        t.is(statuses.filter((s) => s === 429).length, 20 - LOGIN_FAILURES_PER_HOUR);
        const limited = responses.find((r) => r.status === 429)!;
        const body = await expectRefusal(t, limited, 429, 'RATE_LIMIT_EXCEEDED');
        t.like(body, { limit_type: 'per_hour', limit: LOGIN_FAILURES_PER_HOUR });
        t.true(Number(limited.headers.get('retry-after')) > 0);
        t.is((await throttled.request(route, postJson({ email: user.email, password: PASSWORD }))).status, 429);
      }
    } finally {
      await throttled.close();
    }
  },
);
