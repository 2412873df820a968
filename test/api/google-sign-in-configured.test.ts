import { randomUUID } from 'node:crypto';
import test from 'ava';
import { issueOAuthState, oauthStateNonce } from '../../domain/users/oauth-state.js';
import { cookieNamed } from '../helpers/cookies.js';
import { readJson } from '../helpers/http.js';
import { nock } from '../helpers/net.js';
import { startTestApp } from '../helpers/test-app.js';

const GOOGLE = {
  GOOGLE_CLIENT_ID: 'client-123.apps.googleusercontent.com',
  GOOGLE_CLIENT_SECRET: 'shh-secret',
  GOOGLE_REDIRECT_URI: 'https://app.example.com/auth/google/callback',
};

test.afterEach.always(() => nock.cleanAll());

test.serial("with Google configured: the URL is Google's, and the callback signs in through Google", async (t) => {
  const app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0', ...GOOGLE } });
  try {
    const start = await app.request('/api/v1/auth/google');
    const { url } = await readJson(start);
    // The browser that started the sign-in brings its cookie back to the callback.
    const headers = { Cookie: `einvoice_oauth_nonce=${cookieNamed(start, 'einvoice_oauth_nonce')!.value}` };
    const auth = new URL(url);
    t.is(`${auth.origin}${auth.pathname}`, 'https://accounts.google.com/o/oauth2/v2/auth');
    t.is(auth.searchParams.get('client_id'), GOOGLE.GOOGLE_CLIENT_ID);
    t.is(auth.searchParams.get('redirect_uri'), GOOGLE.GOOGLE_REDIRECT_URI);
    const state = auth.searchParams.get('state')!;

    const email = `g-${randomUUID()}@gmail.com`;
    const google = nock('https://oauth2.googleapis.com')
      .post('/token', (body) => body.code === 'good-code' && body.client_secret === GOOGLE.GOOGLE_CLIENT_SECRET)
      .reply(200, { access_token: 'ya29.access', token_type: 'Bearer', expires_in: 3599 });
    const userinfo = nock('https://openidconnect.googleapis.com')
      .get('/v1/userinfo')
      .matchHeader('authorization', 'Bearer ya29.access')
      .reply(200, {
        sub: '1234567890',
        email,
        email_verified: true,
        given_name: 'Jane',
        family_name: 'Doe',
        picture: 'https://lh3.googleusercontent.com/a/jane.jpg',
      });
    const res = await app.request(`/api/v1/auth/google/callback?${new URLSearchParams({ code: 'good-code', state })}`, {
      headers,
    });
    t.is(res.status, 200);
    const body = await readJson(res);
    t.like(body.user, {
      email,
      first_name: 'Jane',
      last_name: 'Doe',
      avatar_url: 'https://lh3.googleusercontent.com/a/jane.jpg',
    });
    t.is((await app.ownerDb('users').where({ id: body.user.id }).first()).google_id, '1234567890');
    google.done();
    userinfo.done();

    // Google refuses the code, then Google is down, then the e-mail is not verified: 401 each time.
    nock('https://oauth2.googleapis.com').post('/token').reply(400, { error: 'invalid_grant' });
    nock('https://oauth2.googleapis.com').post('/token').reply(502, 'Bad Gateway');
    nock('https://oauth2.googleapis.com').post('/token').reply(200, { access_token: 'ya29.access' });
    nock('https://openidconnect.googleapis.com')
      .get('/v1/userinfo')
      .reply(200, { sub: '99', email: 'unverified@example.com', email_verified: false });
    for (const why of [/invalid_grant/, /HTTP 502/, /not verified/]) {
      const failed = await app.request(`/api/v1/auth/google/callback?${new URLSearchParams({ code: 'c', state })}`, {
        headers,
      });
      t.is(failed.status, 401);
      const error = await readJson(failed);
      t.is(error.code, 'UNAUTHENTICATED');
      t.regex(error.message, why);
    }
    t.true(nock.isDone());
    t.is((await app.request('/simulator/google/authorize')).status, 404, 'no simulator when Google is configured');
  } finally {
    await app.close();
  }
});

test.serial('no Google, simulators off: no simulator; GET /auth/google is 503, the callback 401', async (t) => {
  const app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0', ENABLE_SIMULATORS: 'false' } });
  try {
    const start = await app.request('/api/v1/auth/google');
    t.is(start.status, 503);
    t.is((await readJson(start)).code, 'SERVICE_UNAVAILABLE');
    const page = await app.request('/simulator/google/authorize?state=x');
    t.is(page.status, 404);
    t.is((await readJson(page)).code, 'NOT_FOUND');
    const state = issueOAuthState(app.deps.config.appKey, new Date());
    const callback = await app.request(`/api/v1/auth/google/callback?${new URLSearchParams({ code: 'x', state })}`, {
      headers: { Cookie: `einvoice_oauth_nonce=${oauthStateNonce(state)}` },
    });
    t.is(callback.status, 401);
    t.regex((await readJson(callback)).message, /not configured/);
  } finally {
    await app.close();
  }
});
