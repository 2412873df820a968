import { randomUUID } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { ACCESS_TOKEN_FORMAT } from '../../domain/auth/access-token.js';
import { signToken } from '../../domain/auth/signed-token.js';
import { GoogleSimulator } from '../../domain/users/google-simulator.js';
import { issueOAuthState, oauthStateNonce } from '../../domain/users/oauth-state.js';
import { cookieNamed } from '../helpers/cookies.js';
import { readJson } from '../helpers/http.js';
import { PASSWORD, seedUser } from '../helpers/identities.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
});
test.after.always(() => app?.close());

const CALLBACK = 'http://localhost:3000/api/v1/auth/google/callback';
const local = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

/** The browser's Google sign-in cookie, per state, as GET /auth/google set it. */
const browserCookies = new Map<string, string>();

/** The callback, opened by the browser that started the sign-in (its cookie goes with it). */
const inBrowser = (path: string) => {
  const state = new URL(path, 'http://x').searchParams.get('state') ?? '';
  const cookie = browserCookies.get(state);
  return app.request(path, cookie ? { headers: { Cookie: cookie } } : {});
};

/** GET /auth/google, then the simulator's page, then its approval: the callback URL Google would send. */
async function viaSimulator(t: ExecutionContext, email: string): Promise<string> {
  const start = await app.request('/api/v1/auth/google');
  t.is(start.status, 200);
  const nonce = cookieNamed(start, 'einvoice_oauth_nonce')!;
  const { url } = await readJson(start);
  const page = await app.request(local(url));
  t.is(page.status, 200);
  const params = new URL(url).searchParams;
  browserCookies.set(params.get('state')!, `einvoice_oauth_nonce=${nonce.value}`);
  const approve = new URLSearchParams({
    state: params.get('state')!,
    redirect_uri: params.get('redirect_uri')!,
    email,
  });
  const redirect = await app.request(`/simulator/google/approve?${approve}`, { redirect: 'manual' });
  t.is(redirect.status, 302);
  const location = redirect.headers.get('location')!;
  t.true(location.startsWith(`${CALLBACK}?`));
  return local(location);
}

async function unauthenticated(t: ExecutionContext, res: Response) {
  t.is(res.status, 401);
  const body = await readJson(res);
  t.is(body.code, 'UNAUTHENTICATED');
  t.regex(body.message, /^Google sign-in failed/);
  return body;
}

test('GET /auth/google: {url} of the simulator authorization page, with a signed state', async (t) => {
  const res = await app.request('/api/v1/auth/google');
  t.is(res.status, 200);
  const body = await readJson(res);
  t.deepEqual(Object.keys(body), ['url']);
  const url = new URL(body.url);
  t.is(`${url.origin}${url.pathname}`, 'http://localhost:3000/simulator/google/authorize');
  t.is(url.searchParams.get('redirect_uri'), CALLBACK);
  t.is(url.searchParams.get('response_type'), 'code');
  t.is(url.searchParams.get('scope'), 'openid email profile');
  t.regex(url.searchParams.get('state')!, /^[\w-]+\.[\w-]+$/);
});

test('the simulator page is a small HTML form with an e-mail field, under the security headers', async (t) => {
  const { url } = await readJson(await app.request('/api/v1/auth/google'));
  const page = await app.request(local(url));
  t.is(page.status, 200);
  t.regex(page.headers.get('content-type')!, /^text\/html/);
  t.is(page.headers.get('x-frame-options'), 'DENY');
  const html = await page.text();
  t.regex(html, /<form method="get" action="\/simulator\/google\/approve">/);
  t.regex(html, /<input type="email" name="email"/);
  t.true(html.includes(`value="${new URL(url).searchParams.get('state')}"`));
});

test('the simulator refuses another redirect_uri (no open redirect), a missing state and a bad e-mail: 400', async (t) => {
  const { url } = await readJson(await app.request('/api/v1/auth/google'));
  const state = new URL(url).searchParams.get('state')!;
  const cases = [
    `/simulator/google/authorize?${new URLSearchParams({ state, redirect_uri: 'https://evil.example/cb' })}`,
    `/simulator/google/authorize?${new URLSearchParams({ redirect_uri: CALLBACK })}`,
    `/simulator/google/approve?${new URLSearchParams({ state, redirect_uri: 'https://evil.example/cb', email: 'a@b.co' })}`,
    `/simulator/google/approve?${new URLSearchParams({ state, redirect_uri: CALLBACK, email: 'nope' })}`,
  ];
  for (const path of cases) {
    const res = await app.request(path, { redirect: 'manual' });
    t.is(res.status, 400, path);
    t.is((await readJson(res)).code, 'BAD_REQUEST');
  }
});

test('callback: a new e-mail creates a user (no password) with its workspace; 200 {message, user, token}', async (t) => {
  const email = `google-${randomUUID()}@example.com`;
  const res = await inBrowser(await viaSimulator(t, email));
  t.is(res.status, 200);
  const body = await readJson(res);
  t.is(body.message, 'Signed in with Google.');
  t.like(body.user, { email, role: 'user', is_active: true, phone: null });
  t.regex(body.token, ACCESS_TOKEN_FORMAT);
  const row = await app.ownerDb('users').where({ id: body.user.id }).first();
  t.is(row.password_hash, null);
  t.regex(row.google_id, /^simulator-[0-9a-f]{32}$/);
  t.is((await app.ownerDb('tenants').where({ id: row.tenant_id }).first()).kind, 'workspace');
  t.truthy(await app.ownerDb('balances').where({ tenant_id: row.tenant_id }).first());
  const me = await app.request('/api/v1/auth/me', { headers: { Authorization: `Bearer ${body.token}` } });
  t.is((await readJson(me)).data.id, body.user.id);

  const again = await readJson(await inBrowser(await viaSimulator(t, email)));
  t.is(again.user.id, body.user.id, 'found again by its Google id');
  t.is(
    await app
      .ownerDb('users')
      .where({ email })
      .count({ n: '*' })
      .then((r) => Number(r[0].n)),
    1,
  );
});

test('callback: an existing user with that e-mail is linked, not duplicated; the password still works', async (t) => {
  const user = await seedUser(app.ownerDb);
  const body = await readJson(await inBrowser(await viaSimulator(t, user.email.toUpperCase())));
  t.is(body.user.id, user.userId);
  const row = await app.ownerDb('users').where({ id: user.userId }).first();
  t.regex(row.google_id, /^simulator-/);
  t.truthy(row.last_login_at);
  const login = await app.request('/api/v1/auth/login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: user.email, password: PASSWORD }),
  });
  t.is(login.status, 200);
});

test('callback: 401 for a tampered, expired or missing state', async (t) => {
  const callback = new URL(await viaSimulator(t, `s-${randomUUID()}@example.com`), 'http://x');
  const code = callback.searchParams.get('code')!;
  const state = callback.searchParams.get('state')!;
  const key = app.deps.config.appKey;
  const expired = issueOAuthState(key, new Date(Date.now() - 11 * 60_000));
  const forged = issueOAuthState(Buffer.alloc(32, 1), new Date());
  const [body, mac] = state.split('.');
  const tampered = `${Buffer.from(JSON.stringify({ nonce: 'x', exp: 9999999999 })).toString('base64url')}.${mac}`;
  for (const bad of [expired, forged, tampered, `${body}.`, '']) {
    const query = new URLSearchParams({ code, state: bad });
    // The browser holds the nonce the state claims: only the state itself is wrong.
    const headers = { Cookie: `einvoice_oauth_nonce=${oauthStateNonce(bad) ?? 'none'}` };
    await unauthenticated(t, await app.request(`/api/v1/auth/google/callback?${query}`, { headers }));
  }
  await unauthenticated(t, await app.request(`/api/v1/auth/google/callback?${new URLSearchParams({ code })}`));
});

test('callback: 401 for a missing, forged, expired or other-state code, and for error=access_denied', async (t) => {
  const callback = new URL(await viaSimulator(t, `c-${randomUUID()}@example.com`), 'http://x');
  const code = callback.searchParams.get('code')!;
  const key = app.deps.config.appKey;
  const state = issueOAuthState(key, new Date());
  const simulator = app.deps.identityProvider as GoogleSimulator;
  t.true(simulator instanceof GoogleSimulator);
  const expiredCode = signToken(
    { key, purpose: 'google-simulator-code', now: new Date(Date.now() - 3 * 60_000) },
    { email: 'late@example.com', state: 'whatever' },
    120,
  );
  const cases: Record<string, string>[] = [
    { state },
    { state, code: 'garbage' },
    { state, code }, // issued for another state
    { state, code: expiredCode },
    { state, error: 'access_denied' },
  ];
  // The state is genuine and this browser's: only the code is wrong.
  const headers = { Cookie: `einvoice_oauth_nonce=${oauthStateNonce(state)}` };
  for (const query of cases) {
    await unauthenticated(
      t,
      await app.request(`/api/v1/auth/google/callback?${new URLSearchParams(query)}`, { headers }),
    );
  }
});

test('callback: 401 for a disabled account and for an e-mail linked to another Google account', async (t) => {
  const disabled = await seedUser(app.ownerDb);
  await app.ownerDb('users').where({ id: disabled.userId }).update({ is_active: false });
  await unauthenticated(t, await inBrowser(await viaSimulator(t, disabled.email)));

  const linked = await seedUser(app.ownerDb);
  await app.ownerDb('users').where({ id: linked.userId }).update({ google_id: 'another-google-account' });
  const body = await unauthenticated(t, await inBrowser(await viaSimulator(t, linked.email)));
  t.regex(body.message, /linked to another Google account/);
});

test("callback: unknown query parameters are refused (422), Google's own extras are accepted", async (t) => {
  const path = await viaSimulator(t, `x-${randomUUID()}@example.com`);
  const res = await inBrowser(`${path}&scope=openid&authuser=0&prompt=none`);
  t.is(res.status, 200);
  const odd = await inBrowser(`${path}&surprise=1`);
  t.is(odd.status, 422);
});
