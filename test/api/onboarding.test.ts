import { randomUUID } from 'node:crypto';
import test from 'ava';
import { getOnboardingReview } from '../../domain/onboarding/operations/index.js';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import { checkOnboardingReview } from '../../workers/handlers/check-onboarding-review.js';
import { postJson, readJson } from '../helpers/http.js';
import { seedPlatformTenant } from '../helpers/identities.js';
import { freshSiret, onboardThroughSimulator, passSimulator, s256 } from '../helpers/onboarding.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Partner and sub-tenant onboarding over HTTP, with the onboarding simulator standing in for
 * SuperPDP (sandbox). Each test sends its own X-Forwarded-For (one trusted proxy hop), so that the
 * exchanges' strict per-address limit (5 per minute) is counted per test.
 */
let app: TestApp;
test.before(async () => {
  app = await startTestApp({ env: { TRUSTED_PROXY_HOPS: '1', LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent' } });
});
test.after.always(() => app?.close());

let lastIp = 0;
const freshIp = () => `198.51.100.${++lastIp}`;

const count = async (table: string, where: Record<string, unknown> = {}) =>
  Number((await app.ownerDb(table).where(where).count<{ count: string }[]>('* as count'))[0].count);

const childTenants = (partnerId: string) => count('tenants', { parent_tenant_id: partnerId });

async function partner() {
  return seedPlatformTenant(app.ownerDb, { partner: true });
}

const exchange = (body: Record<string, unknown>, ip: string) =>
  app.request('/api/v1/onboarding/exchange', postJson(body, { 'X-Forwarded-For': ip }));

test('partner flow: session, authorize (state + PKCE S256), simulator, callback page, callback, exchange, a working key, onboarding.completed', async (t) => {
  const p = await partner();
  const pk = { 'X-Publishable-Key': p.keys.pk_test };
  const created = await app.request(
    '/api/v1/onboarding/sessions',
    postJson({ mode: 'embedded', external_id: 'crm-42', callback_url: 'https://partner.example/onboarded' }, pk),
  );
  t.is(created.status, 201);
  const session = (await readJson(created)).data;
  t.like(session, {
    mode: 'embedded',
    status: 'pending',
    onboarding_status: 'pending_superpdp',
    external_id: 'crm-42',
  });
  const ttl = Date.parse(session.expires_at) - Date.now();
  t.true(ttl > 6.9 * 86400_000 && ttl <= 7 * 86400_000, 'the session lives 7 days');
  t.regex(session.resume_url, /\/onboarding\/resume\/[^/]+\.[^/]+$/);

  const authorized = await app.request(
    '/api/v1/onboarding/superpdp/authorize',
    postJson({ session_id: session.id }, pk),
  );
  t.is(authorized.status, 200);
  const { authorize_url, state } = (await readJson(authorized)).data;
  const url = new URL(authorize_url);
  t.is(url.pathname, '/simulator/superpdp/oauth2/authorize');
  t.is(url.searchParams.get('state'), state);
  t.is(url.searchParams.get('code_challenge_method'), 'S256');
  t.regex(url.searchParams.get('code_challenge') ?? '', /^[A-Za-z0-9_-]{43}$/);
  const row = await app.ownerDb('onboarding_sessions').where({ id: session.id }).first();
  t.is(row.status, 'superpdp_redirected');
  t.not(row.state_hash, state, 'only the hash of the state is stored');
  t.regex(row.code_verifier_sealed, /^v2:/, 'the PKCE verifier is sealed');

  // The simulator's page is a real form; its answer redirects to the callback page with a code.
  const page = await app.request(`${url.pathname}${url.search}`);
  t.is(page.status, 200);
  t.regex(await page.text(), /<form method="get" action="\/simulator\/superpdp\/oauth2\/decide">/);
  const siret = freshSiret();
  const redirect = await passSimulator(app.request, authorize_url, { company_name: 'Boulangerie Dupont', siret });
  t.is(redirect.get('state'), state);

  // The callback page: our CSP, a script file, no COOP header, the message's target origin.
  const callbackPage = await app.request(`/api/v1/onboarding/superpdp/callback?${redirect}`);
  t.is(callbackPage.status, 200);
  t.is(callbackPage.headers.get('content-security-policy'), "default-src 'self'; script-src 'self'");
  t.is(callbackPage.headers.get('cross-origin-opener-policy'), null);
  const html = await callbackPage.text();
  t.regex(html, /<script src="\/onboarding\/callback.js"><\/script>/);
  t.notRegex(html, /<script>/, 'no inline script');
  t.regex(html, /data-origin="https:\/\/partner.example"/);

  const finished = await app.request(
    '/api/v1/onboarding/superpdp/callback',
    postJson({ session_id: session.id, code: redirect.get('code'), state }, pk),
  );
  t.is(finished.status, 200);
  const result = await readJson(finished);
  t.true(result.success);
  t.like(result.data, { status: 'completed', tenant: { name: 'Boulangerie Dupont', siret, environment: 'sandbox' } });
  t.regex(result.data.authorization_code, /^oac_/);
  const tenantId = result.data.tenant.id;
  const tenantRow = await app.ownerDb('tenants').where({ id: tenantId }).first();
  t.like(tenantRow, { parent_tenant_id: p.tenantId, kyb_status: 'pending', siret });
  const connection = await app.ownerDb('provider_connections').where({ tenant_id: tenantId }).first();
  t.like(connection, { provider: 'simulator', environment: 'sandbox', status: 'active' });
  t.false(String(connection.access_token_sealed).includes('simat_'), 'the token is sealed');
  const events = await app.ownerDb('events').where({ tenant_id: p.tenantId, name: 'onboarding.completed' });
  t.is(events.length, 1);
  t.like(events[0].data, { id: session.id, tenant_id: tenantId, external_id: 'crm-42', environment: 'sandbox' });

  const read = await readJson(await app.request(`/api/v1/onboarding/sessions/${session.id}`, { headers: pk }));
  t.like(read.data, { status: 'completed', onboarding_status: 'active', tenant_id: tenantId, resume_url: null });

  const exchanged = await exchange(
    { publishable_key: p.keys.pk_test, authorization_code: result.data.authorization_code },
    freshIp(),
  );
  t.is(exchanged.status, 200);
  const credentials = (await readJson(exchanged)).data;
  t.is(credentials.tenant_id, tenantId);
  t.is(credentials.environment, 'sandbox');
  t.regex(credentials.api_key, /^sk_test_[A-Za-z0-9]{32}$/);
  const me = await app.request('/api/v1/tenant/auth/me', { headers: { 'X-API-Key': credentials.api_key } });
  t.is(me.status, 200);
  t.like((await readJson(me)).data, { id: tenantId, name: 'Boulangerie Dupont' });
});

test('a replayed state is refused (400) and creates nothing more', async (t) => {
  const p = await partner();
  const pk = { 'X-Publishable-Key': p.keys.pk_test };
  const first = await onboardThroughSimulator(app.request, { variant: 'partner', publishableKey: p.keys.pk_test });
  t.is(first.callback.status, 200);
  t.is(await childTenants(p.tenantId), 1);
  // The same code and state again, and the state with a fresh simulator code.
  const again = await app.request(
    '/api/v1/onboarding/superpdp/callback',
    postJson(
      { session_id: first.session.id, code: first.redirect.get('code'), state: first.redirect.get('state') },
      pk,
    ),
  );
  t.is(again.status, 400);
  t.is((await readJson(again)).code, 'ONBOARDING_STATE_INVALID');
  t.is(await childTenants(p.tenantId), 1);
  t.is(await count('provider_connections', { tenant_id: first.callbackBody.data.tenant.id }), 1);

  // A state that was never issued for the session: 400, nothing created.
  const other = await app.request('/api/v1/onboarding/sessions', postJson({ mode: 'api' }, pk));
  const otherId = (await readJson(other)).data.id;
  await app.request('/api/v1/onboarding/superpdp/authorize', postJson({ session_id: otherId }, pk));
  const forged = await app.request(
    '/api/v1/onboarding/superpdp/callback',
    postJson({ session_id: otherId, code: 'simcode_x', state: first.redirect.get('state') }, pk),
  );
  t.is(forged.status, 400);
  t.is((await readJson(forged)).code, 'ONBOARDING_STATE_INVALID');
  t.is(await childTenants(p.tenantId), 1);
});

test('a replayed authorization code is refused (401) and revokes the key the first exchange gave', async (t) => {
  const p = await partner();
  const { callbackBody } = await onboardThroughSimulator(app.request, {
    variant: 'partner',
    publishableKey: p.keys.pk_test,
  });
  const body = { publishable_key: p.keys.pk_test, authorization_code: callbackBody.data.authorization_code };
  const ip = freshIp();
  const first = await exchange(body, ip);
  t.is(first.status, 200);
  const key = (await readJson(first)).data.api_key;
  t.is((await app.request('/api/v1/tenant/auth/me', { headers: { 'X-API-Key': key } })).status, 200);

  const replay = await exchange(body, ip);
  t.is(replay.status, 401);
  t.is((await readJson(replay)).code, 'AUTHORIZATION_CODE_INVALID');
  const tenantId = callbackBody.data.tenant.id;
  t.is(await count('api_keys', { tenant_id: tenantId }), 1, 'no second key');
  t.is(await count('api_keys', { tenant_id: tenantId, status: 'revoked' }), 1, 'the first key is revoked');
  t.is((await app.request('/api/v1/tenant/auth/me', { headers: { 'X-API-Key': key } })).status, 401);

  // An unknown code is 401 too; another partner's publishable key does not reach the code.
  t.is((await exchange({ ...body, authorization_code: 'oac_unknown' }, ip)).status, 401);
});

test('an expired session refuses the callback (400) and an expired code the exchange (410), leaving no tenant or key', async (t) => {
  const p = await partner();
  const pk = { 'X-Publishable-Key': p.keys.pk_test };
  const created = await readJson(await app.request('/api/v1/onboarding/sessions', postJson({ mode: 'embedded' }, pk)));
  const { authorize_url } = (
    await readJson(
      await app.request('/api/v1/onboarding/superpdp/authorize', postJson({ session_id: created.data.id }, pk)),
    )
  ).data;
  const redirect = await passSimulator(app.request, authorize_url);
  await app
    .ownerDb('onboarding_sessions')
    .where({ id: created.data.id })
    .update({ expires_at: new Date(Date.now() - 1000) });
  const late = await app.request(
    '/api/v1/onboarding/superpdp/callback',
    postJson({ session_id: created.data.id, code: redirect.get('code'), state: redirect.get('state') }, pk),
  );
  t.is(late.status, 400);
  t.is((await readJson(late)).code, 'ONBOARDING_SESSION_EXPIRED');
  t.is(await childTenants(p.tenantId), 0);
  const read = await readJson(await app.request(`/api/v1/onboarding/sessions/${created.data.id}`, { headers: pk }));
  t.is(read.data.status, 'expired');
  t.is(read.data.resume_url, null);

  // A code past its 5 minutes: 410, no key.
  const done = await onboardThroughSimulator(app.request, { variant: 'partner', publishableKey: p.keys.pk_test });
  await app
    .ownerDb('onboarding_sessions')
    .where({ id: done.session.id })
    .update({ authorization_code_expires_at: new Date(Date.now() - 1000) });
  const expired = await exchange(
    { publishable_key: p.keys.pk_test, authorization_code: done.callbackBody.data.authorization_code },
    freshIp(),
  );
  t.is(expired.status, 410);
  t.is((await readJson(expired)).code, 'AUTHORIZATION_CODE_EXPIRED');
  t.is(await count('api_keys', { tenant_id: done.callbackBody.data.tenant.id }), 0);
});

test('the sixth exchange in a minute from one address is 429, and issues nothing', async (t) => {
  const p = await partner();
  const { callbackBody } = await onboardThroughSimulator(app.request, {
    variant: 'partner',
    publishableKey: p.keys.pk_test,
  });
  const ip = freshIp();
  for (let i = 0; i < 5; i++) {
    const res = await exchange({ publishable_key: p.keys.pk_test, authorization_code: `oac_wrong_${i}` }, ip);
    t.is(res.status, 401);
  }
  const sixth = await exchange(
    { publishable_key: p.keys.pk_test, authorization_code: callbackBody.data.authorization_code },
    ip,
  );
  t.is(sixth.status, 429);
  t.is((await readJson(sixth)).code, 'RATE_LIMIT_EXCEEDED');
  t.is(sixth.headers.get('x-ratelimit-limit'), '5');
  t.is(await count('api_keys', { tenant_id: callbackBody.data.tenant.id }), 0);
  // Another address still may: the code was not spent by the refused call.
  t.is(
    (
      await exchange(
        { publishable_key: p.keys.pk_test, authorization_code: callbackBody.data.authorization_code },
        freshIp(),
      )
    ).status,
    200,
  );
});

test("another partner's session id is 404 on every session route, and nothing is created", async (t) => {
  const owner = await partner();
  const stranger = await partner();
  const mine = await readJson(
    await app.request(
      '/api/v1/onboarding/sessions',
      postJson({ mode: 'api' }, { 'X-Publishable-Key': owner.keys.pk_test }),
    ),
  );
  const theirs = { 'X-Publishable-Key': stranger.keys.pk_test };
  const id = mine.data.id;
  t.is((await app.request(`/api/v1/onboarding/sessions/${id}`, { headers: theirs })).status, 404);
  t.is((await app.request('/api/v1/onboarding/superpdp/authorize', postJson({ session_id: id }, theirs))).status, 404);
  const cb = await app.request(
    '/api/v1/onboarding/superpdp/callback',
    postJson({ session_id: id, code: 'simcode_x', state: 'x' }, theirs),
  );
  t.is(cb.status, 404);
  t.is((await app.request(`/api/v1/onboarding/sessions/${randomUUID()}`, { headers: theirs })).status, 404);
  // The tenant routes do not reach a partner session either.
  t.is(
    (await app.request(`/api/v1/tenant/onboarding/sessions/${id}`, { headers: { 'X-API-Key': owner.keys.sk_test } }))
      .status,
    404,
  );
  t.is(await childTenants(owner.tenantId), 0);
  t.is(await childTenants(stranger.tenantId), 0);
});

test('only a partner onboards tenants: another tenant’s publishable key is refused (403)', async (t) => {
  const plain = await seedPlatformTenant(app.ownerDb);
  const res = await app.request(
    '/api/v1/onboarding/sessions',
    postJson({ mode: 'api' }, { 'X-Publishable-Key': plain.keys.pk_test }),
  );
  t.is(res.status, 403);
  t.is(await count('onboarding_sessions', { tenant_id: plain.tenantId }), 0);
});

test('sub-tenant flow: a session by the tenant key, then the publishable key; the exchanged key is bound to the new sub-tenant', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const siret = freshSiret();
  const flow = await onboardThroughSimulator(app.request, {
    variant: 'tenant',
    publishableKey: tenant.keys.pk_test,
    sessionHeaders: { 'X-API-Key': tenant.keys.sk_test },
    session: { mode: 'redirect', external_id: 'shop-7', callback_url: 'https://tenant.example/back' },
    company: { company_name: 'Épicerie Martin', siret },
  });
  t.regex(flow.session.redirect_url, /\/onboarding\/resume\//, 'redirect mode gives redirect_url');
  t.is(flow.callback.status, 200);
  t.like(flow.callbackBody, { success: true, status: 'completed', tenant: { name: 'Épicerie Martin', siret } });
  const subTenantId = flow.callbackBody.tenant.id;
  t.like(await app.ownerDb('sub_tenants').where({ id: subTenantId }).first(), {
    tenant_id: tenant.tenantId,
    external_id: 'shop-7',
    onboarding_status: 'completed',
  });
  t.is(await count('provider_connections', { sub_tenant_id: subTenantId }), 1);
  t.is(await count('events', { tenant_id: tenant.tenantId, name: 'onboarding.completed' }), 1);

  const exchanged = await app.request(
    '/api/v1/tenant/onboarding/exchange',
    postJson(
      { session_id: flow.session.id, authorization_code: flow.callbackBody.authorization_code },
      { 'X-Publishable-Key': tenant.keys.pk_test, 'X-Forwarded-For': freshIp() },
    ),
  );
  t.is(exchanged.status, 200);
  const credentials = (await readJson(exchanged)).data;
  t.like(credentials, { sub_tenant_id: subTenantId, environment: 'sandbox' });
  const keyRow = await app
    .ownerDb('api_keys')
    .where({ key_hash: s256ToHex(credentials.api_key) })
    .first();
  t.is(keyRow.sub_tenant_id, subTenantId);
  const me = await app.request('/api/v1/tenant/auth/me', { headers: { 'X-API-Key': credentials.api_key } });
  t.is(me.status, 200, 'the key works on a tenant route');
  const subTenants = await readJson(
    await app.request('/api/v1/tenant/sub-tenants', { headers: { 'X-API-Key': credentials.api_key } }),
  );
  t.deepEqual(
    subTenants.data.map((s: { id: string }) => s.id),
    [subTenantId],
    'it sees its own sub-tenant only',
  );
  const read = await readJson(
    await app.request(`/api/v1/tenant/onboarding/sessions/${flow.session.id}`, {
      headers: { 'X-API-Key': tenant.keys.sk_test },
    }),
  );
  t.like(read.data, { status: 'completed', sub_tenant_id: subTenantId, external_id: 'shop-7' });
  t.truthy(read.data.completed_at);
});

test('the redirect-mode callback page sends the browser back to callback_url with the code and state', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const pk = { 'X-Publishable-Key': tenant.keys.pk_test };
  const session = (
    await readJson(
      await app.request(
        '/api/v1/tenant/onboarding/sessions',
        postJson({ mode: 'redirect', callback_url: 'https://tenant.example/back?x=1' }, pk),
      ),
    )
  ).data;
  // The redirect_url (the signed resume link) sends the browser to the provider.
  const start = await app.request(new URL(session.redirect_url).pathname, { redirect: 'manual' });
  t.is(start.status, 302);
  const authorizeUrl = start.headers.get('location') ?? '';
  t.regex(authorizeUrl, /\/simulator\/superpdp\/oauth2\/authorize\?/);
  const redirect = await passSimulator(app.request, authorizeUrl);
  const back = await app.request(`/api/v1/onboarding/superpdp/callback?${redirect}`, { redirect: 'manual' });
  t.is(back.status, 302);
  const target = new URL(back.headers.get('location') ?? '');
  t.is(target.origin + target.pathname, 'https://tenant.example/back');
  t.is(target.searchParams.get('session_id'), session.id);
  t.is(target.searchParams.get('code'), redirect.get('code'));
  t.is(target.searchParams.get('state'), redirect.get('state'));
  t.is((await app.request('/onboarding/resume/forged.token', { redirect: 'manual' })).status, 404);
});

test('refused at the provider: the callback page posts the error and the session fails', async (t) => {
  const p = await partner();
  const pk = { 'X-Publishable-Key': p.keys.pk_test };
  const session = (await readJson(await app.request('/api/v1/onboarding/sessions', postJson({ mode: 'embedded' }, pk))))
    .data;
  const { authorize_url } = (
    await readJson(await app.request('/api/v1/onboarding/superpdp/authorize', postJson({ session_id: session.id }, pk)))
  ).data;
  const redirect = await passSimulator(app.request, authorize_url, { decision: 'refuse' });
  t.is(redirect.get('error'), 'access_denied');
  const page = await app.request(`/api/v1/onboarding/superpdp/callback?${redirect}`);
  t.regex(await page.text(), /data-error="access_denied"/);
  const read = await readJson(await app.request(`/api/v1/onboarding/sessions/${session.id}`, { headers: pk }));
  t.like(read.data, { status: 'failed', onboarding_status: 'superpdp_failed' });
  t.is(await childTenants(p.tenantId), 0);
});

test('under review: the account exists but the session stays pending until the review job sees it verified', async (t) => {
  const p = await partner();
  const flow = await onboardThroughSimulator(app.request, {
    variant: 'partner',
    publishableKey: p.keys.pk_test,
    company: { review_seconds: '30' },
  });
  t.is(flow.callback.status, 200);
  t.is(flow.callbackBody.data.status, 'pending');
  const tenantId = flow.callbackBody.data.tenant.id;
  t.like(await app.ownerDb('provider_connections').where({ tenant_id: tenantId }).first(), {
    status: 'pending_review',
  });
  t.is(await count('events', { tenant_id: p.tenantId, name: 'onboarding.completed' }), 0);
  const job = { tenantId: p.tenantId, sessionId: flow.session.id };
  t.is(
    (
      await app.ownerDb.raw(
        "select count(*)::int as n from pgboss.job where name = 'check-onboarding-review' and data->>'sessionId' = ?",
        [flow.session.id],
      )
    ).rows[0].n,
    1,
    'the review job is queued',
  );
  // Still under review: the job throws, so pg-boss asks again later.
  await t.throwsAsync(checkOnboardingReview(job, app.deps), { message: /still reviewing/ });
  await app.ownerDb('onboarding_simulator_grants').update({ review_until: new Date(Date.now() - 1000) });
  await checkOnboardingReview(job, app.deps);
  const read = await execute(getOnboardingReview, { session_id: flow.session.id }, systemCaller(p.tenantId), app.deps);
  t.is(read.onboarding_status, 'active');
  t.like(await app.ownerDb('provider_connections').where({ tenant_id: tenantId }).first(), { status: 'active' });
  t.is(await count('events', { tenant_id: p.tenantId, name: 'onboarding.completed' }), 1);
});

test('the simulator answers only for a session sent to it, and only back to the callback page', async (t) => {
  const p = await partner();
  const pk = { 'X-Publishable-Key': p.keys.pk_test };
  const session = (await readJson(await app.request('/api/v1/onboarding/sessions', postJson({ mode: 'api' }, pk))))
    .data;
  const { authorize_url } = (
    await readJson(await app.request('/api/v1/onboarding/superpdp/authorize', postJson({ session_id: session.id }, pk)))
  ).data;
  const url = new URL(authorize_url);
  url.searchParams.set('redirect_uri', 'https://evil.example/steal');
  t.is((await app.request(`${url.pathname}${url.search}`)).status, 400);
  url.searchParams.set('redirect_uri', new URL(authorize_url).searchParams.get('redirect_uri') ?? '');
  url.searchParams.set('state', 'not-a-state-we-issued');
  t.is((await app.request(`${url.pathname}${url.search}`)).status, 404);
  // A production session sent to SuperPDP is 404 here too: test/api/onboarding-superpdp.test.ts.
});

/** api_keys stores the SHA-256 (hex) of the key. */
function s256ToHex(key: string): string {
  return Buffer.from(s256(key), 'base64url').toString('hex');
}
