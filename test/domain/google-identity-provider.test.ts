import test from 'ava';
import { systemClock } from '../../domain/shared/clock.js';
import { loadConfig } from '../../domain/shared/config.js';
import {
  GOOGLE_TOKEN_ENDPOINT,
  GOOGLE_USERINFO_ENDPOINT,
  GoogleIdentityProvider,
} from '../../domain/users/google-identity-provider.js';
import { GoogleSimulator } from '../../domain/users/google-simulator.js';
import { IdentityProviderError, UnconfiguredIdentityProvider } from '../../domain/users/identity-provider.js';
import { identityProviderFor } from '../../domain/users/identity-providers.js';
import { nock } from '../helpers/net.js';

const OPTIONS = {
  clientId: 'client-123.apps.googleusercontent.com',
  clientSecret: 'shh-secret',
  redirectUri: 'https://app.example.com/api/v1/auth/google/callback',
  timeoutMs: 200,
};
const google = new GoogleIdentityProvider(OPTIONS);

const token = () =>
  nock('https://oauth2.googleapis.com')
    .post('/token', {
      code: 'the-code',
      client_id: OPTIONS.clientId,
      client_secret: OPTIONS.clientSecret,
      redirect_uri: OPTIONS.redirectUri,
      grant_type: 'authorization_code',
    })
    .matchHeader('content-type', 'application/x-www-form-urlencoded');
const userinfo = () =>
  nock('https://openidconnect.googleapis.com').get('/v1/userinfo').matchHeader('authorization', 'Bearer ya29.access');

const reason = async (promise: Promise<unknown>) => {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  return err instanceof IdentityProviderError ? err.reason : `not an IdentityProviderError: ${String(err)}`;
};

test.afterEach.always(() => nock.cleanAll());

test("the endpoints are Google's", (t) => {
  t.is(GOOGLE_TOKEN_ENDPOINT, 'https://oauth2.googleapis.com/token');
  t.is(GOOGLE_USERINFO_ENDPOINT, 'https://openidconnect.googleapis.com/v1/userinfo');
});

test('the authorization URL: code flow, openid email profile, our client, redirect and state', (t) => {
  const url = new URL(google.authorizationUrl('the-state'));
  t.is(`${url.origin}${url.pathname}`, 'https://accounts.google.com/o/oauth2/v2/auth');
  t.like(Object.fromEntries(url.searchParams), {
    client_id: OPTIONS.clientId,
    redirect_uri: OPTIONS.redirectUri,
    response_type: 'code',
    scope: 'openid email profile',
    state: 'the-state',
  });
  t.false(url.search.includes(OPTIONS.clientSecret));
});

test.serial('exchange: code → access token → userinfo → identity', async (t) => {
  const scope = token()
    .reply(200, { access_token: 'ya29.access', expires_in: 3599, token_type: 'Bearer', id_token: 'x.y.z' })
    .post('/never')
    .optionally()
    .reply(500);
  const info = userinfo().reply(200, {
    sub: '10769150350006150715113082367',
    email: 'Jane.Doe@Gmail.com',
    email_verified: true,
    given_name: 'Jane',
    family_name: 'Doe',
    picture: 'https://lh3.googleusercontent.com/a/photo.jpg',
  });
  t.deepEqual(await google.exchangeCode('the-code'), {
    subject: '10769150350006150715113082367',
    email: 'jane.doe@gmail.com',
    emailVerified: true,
    firstName: 'Jane',
    lastName: 'Doe',
    avatarUrl: 'https://lh3.googleusercontent.com/a/photo.jpg',
  });
  scope.done();
  info.done();
});

test.serial('exchange: an unverified e-mail is reported as such', async (t) => {
  token().reply(200, { access_token: 'ya29.access' });
  userinfo().reply(200, { sub: '1', email: 'x@example.com', email_verified: false });
  t.false((await google.exchangeCode('the-code')).emailVerified);
});

test.serial('exchange: a refused code (400 invalid_grant) is rejected', async (t) => {
  const scope = token().reply(400, { error: 'invalid_grant', error_description: 'Bad Request' });
  t.is(await reason(google.exchangeCode('the-code')), 'rejected');
  scope.done();
});

test.serial('exchange: no access token, or userinfo without sub or e-mail, is rejected', async (t) => {
  token().reply(200, { token_type: 'Bearer' });
  t.is(await reason(google.exchangeCode('the-code')), 'rejected');
  token().reply(200, { access_token: 'ya29.access' });
  userinfo().reply(200, { sub: '1' });
  t.is(await reason(google.exchangeCode('the-code')), 'rejected');
  token().reply(200, { access_token: 'ya29.access' });
  userinfo().reply(401, { error: 'invalid_token' });
  t.is(await reason(google.exchangeCode('the-code')), 'rejected');
});

test.serial('exchange: 5xx, 429 and network errors are unavailable', async (t) => {
  token().reply(503, 'down');
  t.is(await reason(google.exchangeCode('the-code')), 'unavailable');
  token().reply(429, { error: 'rate_limited' });
  t.is(await reason(google.exchangeCode('the-code')), 'unavailable');
  token().replyWithError('socket hang up');
  t.is(await reason(google.exchangeCode('the-code')), 'unavailable');
});

test('exchange: a Google that never answers times out as unavailable', async (t) => {
  // A fetch that waits for the abort: nock 15 crashes undici when a delayed reply is aborted.
  let signal: AbortSignal | undefined;
  const hanging = ((_url: string, init: RequestInit) =>
    new Promise((_resolve, reject) => {
      signal = init.signal ?? undefined;
      signal?.addEventListener('abort', () => reject(signal?.reason));
    })) as unknown as typeof fetch;
  const started = Date.now();
  const slow = new GoogleIdentityProvider({ ...OPTIONS, timeoutMs: 100, fetch: hanging });
  const keepAlive = setInterval(() => {}, 50); // AbortSignal.timeout's timer does not hold the process
  t.is(await reason(slow.exchangeCode('the-code')), 'unavailable');
  clearInterval(keepAlive);
  t.true(signal?.aborted);
  t.true(Date.now() - started < 2000);
});

test('which provider: Google when configured, the simulator with ENABLE_SIMULATORS, else none', (t) => {
  const base = { APP_KEY: `base64:${Buffer.alloc(32, 3).toString('base64')}`, DATABASE_URL: 'postgres://db/x' };
  const configured = loadConfig({ ...base, GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret' });
  t.true(identityProviderFor(configured, systemClock) instanceof GoogleIdentityProvider);
  t.true(
    identityProviderFor(loadConfig({ ...base, ENABLE_SIMULATORS: 'true' }), systemClock) instanceof GoogleSimulator,
  );
  t.true(identityProviderFor(loadConfig(base), systemClock) instanceof UnconfiguredIdentityProvider);
  const production = identityProviderFor(
    loadConfig({ ...base, NODE_ENV: 'production', SMTP_URL: 'smtp://mail.internal' }),
    systemClock,
  );
  t.true(production instanceof UnconfiguredIdentityProvider);
  t.throws(() => production.authorizationUrl('s'), { instanceOf: IdentityProviderError });
});

test('configuration: the Google id and secret go together; the redirect URI must be a URL', (t) => {
  const err = t.throws(() => loadConfig({ GOOGLE_CLIENT_ID: 'id', GOOGLE_REDIRECT_URI: 'nope' })) as Error & {
    problems: string[];
  };
  t.deepEqual(err.problems, [
    'GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET: set both (Google sign-in) or neither (simulator)',
    'GOOGLE_REDIRECT_URI: must be an http(s) URL (got "nope")',
  ]);
});
