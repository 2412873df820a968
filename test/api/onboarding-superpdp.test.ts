import test from 'ava';
import { open } from '../../domain/shared/secret-box.js';
import { checkOnboardingReview } from '../../workers/handlers/check-onboarding-review.js';
import { postJson, readJson } from '../helpers/http.js';
import { seedPlatformTenant } from '../helpers/identities.js';
import { nock } from '../helpers/net.js';
import { s256 } from '../helpers/onboarding.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Production onboarding through SuperPDP's OAuth 2.1 code flow (provider-apis.md §1.2), with nock at
 * SuperPDP's HTTP boundary: the authorize URL (state, PKCE S256), the code exchange proving the
 * verifier, the KYB gate (403 while under review), the refresh token's rotation under the row lock,
 * and the refusals. No simulator: ENABLE_SIMULATORS is off, so production can only use SuperPDP.
 */
const SUPERPDP = 'https://api.superpdp.test';
let app: TestApp;
test.before(async () => {
  app = await startTestApp({
    env: {
      ENABLE_SIMULATORS: 'false',
      SUPERPDP_BASE_URL: SUPERPDP,
      SUPERPDP_CLIENT_ID: 'our-client',
      SUPERPDP_CLIENT_SECRET: 'our-secret',
      PUBLIC_BASE_URL: 'https://einvoice.example',
      RATE_LIMIT_SCALE: '0',
    },
  });
});
test.after.always(() => app?.close());
test.afterEach.always(() => nock.cleanAll());

const CALLBACK = 'https://einvoice.example/api/v1/onboarding/superpdp/callback';

async function startLiveSession(externalId = 'crm-1') {
  const partner = await seedPlatformTenant(app.ownerDb, { partner: true });
  const pk = { 'X-Publishable-Key': partner.keys.pk_live };
  const session = (
    await readJson(
      await app.request('/api/v1/onboarding/sessions', postJson({ mode: 'embedded', external_id: externalId }, pk)),
    )
  ).data;
  const authorization = (
    await readJson(await app.request('/api/v1/onboarding/superpdp/authorize', postJson({ session_id: session.id }, pk)))
  ).data;
  return { partner, pk, session, authorization, url: new URL(authorization.authorize_url) };
}

/** The token endpoint, answering only a code exchange that proves the challenge's verifier. */
function tokenEndpoint(challenge: string, reply: [number, Record<string, unknown>]) {
  return nock(SUPERPDP)
    .post('/oauth2/token', (body: Record<string, string>) => {
      return (
        body.grant_type === 'authorization_code' &&
        body.code === 'provider-code' &&
        body.redirect_uri === CALLBACK &&
        body.client_id === 'our-client' &&
        body.client_secret === 'our-secret' &&
        s256(body.code_verifier ?? '') === challenge
      );
    })
    .reply(...reply);
}

const callback = (pk: Record<string, string>, sessionId: string, state: string) =>
  app.request(
    '/api/v1/onboarding/superpdp/callback',
    postJson({ session_id: sessionId, code: 'provider-code', state }, pk),
  );

const childTenants = async (partnerId: string) =>
  Number(
    (await app.ownerDb('tenants').where({ parent_tenant_id: partnerId }).count<{ count: string }[]>('* as count'))[0]
      .count,
  );

test.serial(
  'the code flow: authorize URL with PKCE, the code exchanged with its verifier, the tenant with a sealed SuperPDP connection',
  async (t) => {
    const { partner, pk, session, authorization, url } = await startLiveSession();
    t.is(url.origin + url.pathname, `${SUPERPDP}/oauth2/authorize`);
    t.is(url.searchParams.get('response_type'), 'code');
    t.is(url.searchParams.get('client_id'), 'our-client');
    t.is(url.searchParams.get('redirect_uri'), CALLBACK);
    t.is(url.searchParams.get('state'), authorization.state);
    t.is(url.searchParams.get('code_challenge_method'), 'S256');
    const challenge = url.searchParams.get('code_challenge') ?? '';

    const token = tokenEndpoint(challenge, [
      200,
      { access_token: 'at-1', refresh_token: 'rt-1', token_type: 'Bearer', expires_in: 1800 },
    ]);
    const api = nock(SUPERPDP, { reqheaders: { authorization: 'Bearer at-1' } })
      .get('/v1.beta/oauth2_sessions/me')
      .reply(200, { client_id: 'our-client', company_verification_status: 'verified' })
      .get('/v1.beta/companies/me')
      .reply(200, { id: 77, formal_name: 'Dupont SAS', number: '732829320', number_scheme: 'fr_siren' });
    const res = await callback(pk, session.id, authorization.state);
    t.is(res.status, 200);
    const body = await readJson(res);
    t.like(body.data, { status: 'completed', tenant: { name: 'Dupont SAS', siret: null, environment: 'production' } });
    t.true(token.isDone() && api.isDone());

    const tenantId = body.data.tenant.id;
    const connection = await app.ownerDb('provider_connections').where({ tenant_id: tenantId }).first();
    t.like(connection, { provider: 'superpdp', environment: 'production', client_id: 'our-client', status: 'active' });
    for (const column of ['client_secret_sealed', 'access_token_sealed', 'refresh_token_sealed']) {
      t.regex(connection[column], /^v2:/, `${column} is sealed`);
    }
    t.false(JSON.stringify(connection).includes('rt-1'));
    t.is(await childTenants(partner.tenantId), 1);

    // Refresh rotation, reused from the transmission context: two callers at once, one token call.
    await app
      .ownerDb('provider_connections')
      .where({ id: connection.id })
      .update({ access_token_expires_at: new Date(Date.now() - 1000) });
    const refresh = nock(SUPERPDP)
      .post(
        '/oauth2/token',
        (b: Record<string, string>) => b.grant_type === 'refresh_token' && b.refresh_token === 'rt-1',
      )
      .once()
      .reply(200, { access_token: 'at-2', refresh_token: 'rt-2', expires_in: 1800 });
    const provider = app.deps.onboardingProviders.ofKind('superpdp');
    const ref = { id: connection.id, tenantId, environment: 'production' as const };
    t.deepEqual(await Promise.all([provider.accessTokenOf(ref), provider.accessTokenOf(ref)]), ['at-2', 'at-2']);
    t.true(refresh.isDone());
    const rotated = await app.ownerDb('provider_connections').where({ id: connection.id }).first();
    t.is(
      open(app.deps.config.appKey!, rotated.refresh_token_sealed, `provider-connection:${connection.id}:refresh`),
      'rt-2',
    );
    t.is(rotated.token_version, connection.token_version + 1);

    // The exchange gives a live key; production stays closed until the new tenant's KYB is verified.
    const exchanged = await app.request(
      '/api/v1/onboarding/exchange',
      postJson({ publishable_key: partner.keys.pk_live, authorization_code: body.data.authorization_code }),
    );
    t.is(exchanged.status, 200);
    const key = (await readJson(exchanged)).data.api_key;
    t.regex(key, /^sk_live_/);
    const me = await app.request('/api/v1/tenant/auth/me', { headers: { 'X-API-Key': key } });
    t.is((await readJson(me)).code, 'KYC_REQUIRED');
  },
);

for (const [status, error] of [
  [400, 'invalid_grant'],
  [401, 'invalid_client'],
] as const) {
  test.serial(`the token endpoint's ${status} (${error}) refuses the callback (400) and creates nothing`, async (t) => {
    const { partner, pk, session, authorization, url } = await startLiveSession();
    const token = tokenEndpoint(url.searchParams.get('code_challenge') ?? '', [status, { error }]);
    const res = await callback(pk, session.id, authorization.state);
    t.is(res.status, 400);
    const body = await readJson(res);
    t.is(body.code, 'ONBOARDING_STATE_INVALID');
    t.regex(body.message, new RegExp(error));
    t.true(token.isDone());
    t.is(await childTenants(partner.tenantId), 0);
  });
}

test.serial(
  'a company SuperPDP could not verify fails the session (400 ONBOARDING_REFUSED), nothing created',
  async (t) => {
    const { partner, pk, session, authorization, url } = await startLiveSession();
    tokenEndpoint(url.searchParams.get('code_challenge') ?? '', [200, { access_token: 'at-f', expires_in: 1800 }]);
    nock(SUPERPDP).get('/v1.beta/oauth2_sessions/me').reply(200, { company_verification_status: 'failed' });
    const res = await callback(pk, session.id, authorization.state);
    t.is(res.status, 400);
    t.is((await readJson(res)).code, 'ONBOARDING_REFUSED');
    t.is(await childTenants(partner.tenantId), 0);
    const read = await readJson(await app.request(`/api/v1/onboarding/sessions/${session.id}`, { headers: pk }));
    t.like(read.data, { status: 'failed', onboarding_status: 'superpdp_failed' });
  },
);

test.serial('SuperPDP down (500) is 503 and creates nothing', async (t) => {
  const { partner, pk, session, authorization, url } = await startLiveSession();
  tokenEndpoint(url.searchParams.get('code_challenge') ?? '', [500, { message: 'boom' }]);
  const res = await callback(pk, session.id, authorization.state);
  t.is(res.status, 503);
  t.is((await readJson(res)).code, 'PROVIDER_UNAVAILABLE');
  t.is(await childTenants(partner.tenantId), 0);
});

test.serial(
  '403 under review: the tenant exists, pending; the review job completes it once SuperPDP verifies the company',
  async (t) => {
    const { partner, pk, session, authorization, url } = await startLiveSession('crm-review');
    tokenEndpoint(url.searchParams.get('code_challenge') ?? '', [
      200,
      { access_token: 'at-r', refresh_token: 'rt-r', expires_in: 1800 },
    ]);
    nock(SUPERPDP)
      .get('/v1.beta/oauth2_sessions/me')
      .reply(403, { http_status_code: 403, message: 'company under review' });
    const res = await callback(pk, session.id, authorization.state);
    t.is(res.status, 200);
    const body = await readJson(res);
    t.like(body.data, { status: 'pending', tenant: { name: 'crm-review' } });
    const tenantId = body.data.tenant.id;
    t.like(await app.ownerDb('provider_connections').where({ tenant_id: tenantId }).first(), {
      status: 'pending_review',
    });
    const completed = () => app.ownerDb('events').where({ tenant_id: partner.tenantId, name: 'onboarding.completed' });
    t.is((await completed()).length, 0);

    const job = { tenantId: partner.tenantId, sessionId: session.id };
    nock(SUPERPDP, { reqheaders: { authorization: 'Bearer at-r' } })
      .get('/v1.beta/oauth2_sessions/me')
      .reply(200, { company_verification_status: 'needs_review' });
    await t.throwsAsync(checkOnboardingReview(job, app.deps), { message: /still reviewing/ });

    nock(SUPERPDP, { reqheaders: { authorization: 'Bearer at-r' } })
      .get('/v1.beta/oauth2_sessions/me')
      .reply(200, { company_verification_status: 'verified' })
      .get('/v1.beta/companies/me')
      .reply(200, { formal_name: 'Revue SARL', number: '73282932000074' });
    await checkOnboardingReview(job, app.deps);
    t.like(await app.ownerDb('tenants').where({ id: tenantId }).first(), {
      name: 'Revue SARL',
      siret: '73282932000074',
    });
    t.like(await app.ownerDb('provider_connections').where({ tenant_id: tenantId }).first(), { status: 'active' });
    const events = await completed();
    t.is(events.length, 1);
    t.like(events[0].data, { tenant_id: tenantId, name: 'Revue SARL', environment: 'production' });
    const read = await readJson(await app.request(`/api/v1/onboarding/sessions/${session.id}`, { headers: pk }));
    t.like(read.data, { status: 'completed', onboarding_status: 'active' });
  },
);

test.serial('sandbox still onboards through the simulator; production never does', async (t) => {
  const partner = await seedPlatformTenant(app.ownerDb, { partner: true });
  const pk = { 'X-Publishable-Key': partner.keys.pk_test };
  const session = (await readJson(await app.request('/api/v1/onboarding/sessions', postJson({ mode: 'api' }, pk))))
    .data;
  const { authorize_url } = (
    await readJson(await app.request('/api/v1/onboarding/superpdp/authorize', postJson({ session_id: session.id }, pk)))
  ).data;
  t.is(new URL(authorize_url).pathname, '/simulator/superpdp/oauth2/authorize');
  // The simulator page refuses a production session's state: it was sent to SuperPDP.
  const live = await startLiveSession();
  const simulated = new URL(authorize_url);
  simulated.searchParams.set('state', live.authorization.state);
  simulated.searchParams.set('code_challenge', live.url.searchParams.get('code_challenge') ?? '');
  t.is((await app.request(`${simulated.pathname}${simulated.search}`)).status, 404);
});

test.serial(
  'without SuperPDP nor ENABLE_SIMULATORS, production onboarding is refused (503) and sandbox keeps its simulator',
  async (t) => {
    const bare = await startTestApp({ env: { ENABLE_SIMULATORS: 'false', RATE_LIMIT_SCALE: '0' } });
    try {
      const partner = await seedPlatformTenant(bare.ownerDb, { partner: true });
      const authorize = async (pk: string) => {
        const headers = { 'X-Publishable-Key': pk };
        const session = (
          await readJson(await bare.request('/api/v1/onboarding/sessions', postJson({ mode: 'api' }, headers)))
        ).data;
        return bare.request('/api/v1/onboarding/superpdp/authorize', postJson({ session_id: session.id }, headers));
      };
      const live = await authorize(partner.keys.pk_live);
      t.is(live.status, 503);
      t.is((await readJson(live)).code, 'PROVIDER_UNAVAILABLE');
      const sandbox = await authorize(partner.keys.pk_test);
      t.is(sandbox.status, 200);
      t.regex((await readJson(sandbox)).data.authorize_url, /\/simulator\/superpdp\/oauth2\/authorize\?/);
    } finally {
      await bare.close();
    }
  },
);
