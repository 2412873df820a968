import test, { type ExecutionContext } from 'ava';
import type { Caller } from '../../domain/shared/caller.js';
import { authorize } from '../../domain/shared/execute.js';
import { getOpenapiConfig } from '../../domain/signatures/operations/index.js';
import { tokenIdOf } from '../../domain/signatures/provider/openapi-token-store.js';
import { expectInvalid as invalid, expectRefusal as refusal } from '../helpers/assertions.js';
import { readJson } from '../helpers/http.js';
import { type SeededUser, seedUser, seedUserKey } from '../helpers/identities.js';
import { nock } from '../helpers/net.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The admin routes of the signature provider against Openapi's OAuth hosts, nock-driven. The
 * configuration is one row for the whole service, so these tests run one after the other.
 */
let app: TestApp;
let admin: SeededUser;

const TEST_OAUTH = 'https://test.oauth.openapi.com';
const PROD_OAUTH = 'https://oauth.openapi.com';
const EMAIL = 'ops@example.com';
const API_KEY = 'apikey-SECRET-0123456789';
const REQUIRED = ['POST:test.esignature.openapi.com/EU-SES', 'GET:test.esignature.openapi.com/signatures'];
const OPTIONAL = ['DELETE:test.esignature.openapi.com/signatures'];
const basic = (email = EMAIL, key = API_KEY) => `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}`;
const inAYear = () => Math.floor(Date.now() / 1000) + 365 * 86400;

test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
  admin = await seedUser(app.ownerDb, { admin: true });
});
test.after.always(() => app?.close());
test.afterEach.always(() => nock.cleanAll());

const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  app.request(`/api/v1/admin/openapi${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${admin.token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const configRow = () => app.ownerDb('signature_provider_config').where({ id: 1 }).first();
const save = async (t: ExecutionContext, body: Record<string, unknown>) => {
  const res = await call('POST', '/config', body);
  const json = await readJson(res);
  t.is(res.status, 200, JSON.stringify(json));
  return json;
};
/** A fresh test-mode account whose service token is `token` (given, so no mint is needed). */
const configureWith = (t: ExecutionContext, token: string) =>
  save(t, { account_email: EMAIL, api_key: API_KEY, test_mode: true, token });

test.serial('before any configuration: GET says so, the provider routes answer 409', async (t) => {
  const res = await call('GET', '/config');
  t.is(res.status, 200);
  t.deepEqual((await readJson(res)).data, {
    configured: false,
    account_email: null,
    test_mode: false,
    token: null,
    verified_at: null,
    verification: null,
    updated_at: null,
  });
  for (const [method, path] of [
    ['POST', '/config/verify'],
    ['GET', '/credit'],
    ['GET', '/tokens'],
    ['POST', '/tokens/tok_0123456789abcdef01234567/refresh'],
  ]) {
    await refusal(t, await call(method, path), 409, 'SIGNATURE_PROVIDER_NOT_CONFIGURED');
  }
  await refusal(t, await call('POST', '/tokens', { scopes: REQUIRED }), 409, 'SIGNATURE_PROVIDER_NOT_CONFIGURED');
});

test.serial('only an admin signed in as itself: a user is 403, API keys (even an admin’s) 401', async (t) => {
  const user = await seedUser(app.ownerDb);
  const refused = await refusal(
    t,
    await call('GET', '/config', undefined, { Authorization: `Bearer ${user.token}` }),
    403,
    'FORBIDDEN',
  );
  t.regex(refused.message, /admin access/);
  await refusal(
    t,
    await call(
      'POST',
      '/config',
      { account_email: EMAIL, api_key: API_KEY },
      { Authorization: `Bearer ${user.token}` },
    ),
    403,
    'FORBIDDEN',
  );
  t.is(await configRow(), undefined, 'nothing written');
  const adminKey = await seedUserKey(app.ownerDb, admin);
  const withKey = await app.request('/api/v1/admin/openapi/config', { headers: { 'X-API-Key': adminKey } });
  t.is(withKey.status, 401);
  await withKey.arrayBuffer();

  // The operation itself refuses a key's caller, whatever permissions it carries.
  const keyCaller: Caller = {
    kind: 'user',
    tenantId: admin.tenantId,
    userId: admin.userId,
    environment: 'sandbox',
    scopes: ['invoices', 'signatures'],
    permissions: ['admin access'],
    credential: { type: 'secret_key', id: 'k' },
  };
  t.throws(() => authorize(getOpenapiConfig, keyCaller), { message: /admin access/ });
  t.notThrows(() => authorize(getOpenapiConfig, { ...keyCaller, credential: { type: 'access_token', id: 't' } }));
  t.throws(() =>
    authorize(getOpenapiConfig, { ...keyCaller, permissions: [], credential: { type: 'session', id: 's' } }),
  );
});

test.serial('POST /config: bad input is 422 naming the field, and writes nothing', async (t) => {
  await invalid(t, await call('POST', '/config', { account_email: 'not-an-email', api_key: API_KEY }), 'account_email');
  await invalid(t, await call('POST', '/config', { account_email: EMAIL }), 'api_key');
  await invalid(t, await call('POST', '/config', { account_email: EMAIL, api_key: 'has a space' }), 'api_key');
  await invalid(
    t,
    await call('POST', '/config', { account_email: EMAIL, api_key: API_KEY, test_mode: 'yes' }),
    'test_mode',
  );
  t.is(await configRow(), undefined);
});

test.serial('POST /config seals the API key and a given token; GET never shows them', async (t) => {
  const token = 'given-service-token-WXYZ';
  const saved = await configureWith(t, token);
  t.regex(saved.message, /saved/);
  t.like(saved.data, {
    configured: true,
    account_email: EMAIL,
    test_mode: true,
    verified_at: null,
    verification: null,
  });
  t.deepEqual(saved.data.token, { hint: 'WXYZ', expires_at: null, scopes: [] });

  const row = await configRow();
  t.is(row.account_email, EMAIL);
  t.regex(row.api_key_sealed, /^v2:/);
  t.regex(row.token_sealed, /^v2:/);
  t.is(row.updated_by, admin.userId);
  const stored = JSON.stringify(row);
  t.false(stored.includes(API_KEY), 'the API key is not stored in clear');
  t.false(stored.includes(token), 'the token is not stored in clear');

  const read = await call('GET', '/config');
  const text = await read.text();
  t.is(read.status, 200);
  t.false(text.includes(API_KEY));
  t.false(text.includes(token));
  t.deepEqual(JSON.parse(text).data, saved.data);
});

test.serial('verify: the token holds the required scopes → ok, recorded with its scopes and expiry', async (t) => {
  const token = 'svc-token-scoped-0001';
  await configureWith(t, token);
  const expireAt = inAYear();
  const lookup = nock(TEST_OAUTH)
    .get(`/tokens/${token}`)
    .matchHeader('authorization', basic())
    .reply(200, {
      data: { token, scopes: [...REQUIRED, 'GET:test.oauth.openapi.com/wallet'], expireAt },
      success: true,
    });
  const res = await call('POST', '/config/verify');
  const body = await readJson(res);
  t.is(res.status, 200, JSON.stringify(body));
  t.like(body.data, { ok: true, missing_scopes: [], optional_missing_scopes: OPTIONAL, message: null });
  lookup.done();

  const config = (await readJson(await call('GET', '/config'))).data;
  t.is(config.verified_at, body.data.checked_at);
  t.deepEqual(config.verification, body.data);
  t.deepEqual(config.token.scopes, [...REQUIRED, 'GET:test.oauth.openapi.com/wallet']);
  t.is(config.token.expires_at, new Date(expireAt * 1000).toISOString());
});

test.serial('verify: a token without the required scopes → ok: false, listing them', async (t) => {
  const token = 'svc-token-narrow-0002';
  await configureWith(t, token);
  nock(TEST_OAUTH)
    .get(`/tokens/${token}`)
    .reply(200, { token, scopes: ['GET:test.esignature.openapi.com/*'], expireAt: inAYear() });
  const body = await readJson(await call('POST', '/config/verify'));
  t.like(body.data, { ok: false, missing_scopes: [REQUIRED[0]], optional_missing_scopes: OPTIONAL });
  t.regex(body.data.message, /lacks required scopes: POST:test\.esignature\.openapi\.com\/EU-SES/);
  t.is((await readJson(await call('GET', '/config'))).data.verified_at, null);
});

test.serial("verify: Openapi refuses the API key (401) → ok: false with the provider's message", async (t) => {
  const token = 'svc-token-refused-0003';
  await configureWith(t, token);
  nock(TEST_OAUTH)
    .get(`/tokens/${token}`)
    .reply(401, { success: false, message: 'Invalid credentials', error: 401, data: null });
  const res = await call('POST', '/config/verify');
  const body = await readJson(res);
  t.is(res.status, 200);
  t.like(body.data, { ok: false, missing_scopes: REQUIRED, optional_missing_scopes: OPTIONAL });
  t.regex(body.data.message, /refused the account's e-mail and API key \(401\): Invalid credentials/);
  t.false(JSON.stringify(body).includes(token));
  const row = await configRow();
  t.is(row.verified_at, null);
  t.is(row.verification.ok, false);
});

test.serial(
  'verify without a token mints one (POST /tokens, Basic), then checks it; a refused mint is ok: false',
  async (t) => {
    // A new API key: the token given with the previous one is dropped.
    const key = 'apikey-MINT-0123456789';
    await save(t, { account_email: EMAIL, api_key: key, test_mode: true });
    t.is((await configRow()).token_sealed, null);
    const minted = 'minted-service-token-MNT1';
    const mint = nock(TEST_OAUTH)
      .post('/tokens', (body) => body.name === 'einvoice-service' && body.scopes.includes(REQUIRED[0]))
      .matchHeader('authorization', basic(EMAIL, key))
      .reply(200, { data: { token: minted, scopes: [...REQUIRED, ...OPTIONAL], expireAt: inAYear() } });
    nock(TEST_OAUTH)
      .get(`/tokens/${minted}`)
      .reply(200, { data: { token: minted, scopes: [...REQUIRED, ...OPTIONAL], expireAt: inAYear() } });
    const body = await readJson(await call('POST', '/config/verify'));
    t.like(body.data, { ok: true, missing_scopes: [], optional_missing_scopes: [] });
    mint.done();
    t.is((await readJson(await call('GET', '/config'))).data.token.hint, 'MNT1');
    t.false(JSON.stringify(await configRow()).includes(minted));

    // Another API key: the minted token goes with the old one; Openapi refuses the new key.
    const other = 'apikey-OTHER-9876543210';
    await save(t, { account_email: EMAIL, api_key: other });
    const row = await configRow();
    t.is(row.token_sealed, null);
    t.is(row.test_mode, true, 'test_mode left out keeps its value');
    t.is(row.verification, null);
    nock(TEST_OAUTH)
      .post('/tokens')
      .matchHeader('authorization', basic(EMAIL, other))
      .reply(401, { message: 'Unauthorized' });
    const refused = await readJson(await call('POST', '/config/verify'));
    t.like(refused.data, { ok: false });
    t.regex(refused.data.message, /refused the account's e-mail and API key/);
  },
);

test.serial('verify: a token Openapi no longer knows (404) is minted again, once', async (t) => {
  const gone = 'deleted-in-console-GONE';
  await configureWith(t, gone);
  const fresh = 'reminted-service-token-RMT1';
  nock(TEST_OAUTH).get(`/tokens/${gone}`).reply(404, { success: false, message: 'Token not found', error: 120 });
  nock(TEST_OAUTH).post('/tokens').matchHeader('authorization', basic()).reply(200, { token: fresh, scopes: REQUIRED });
  nock(TEST_OAUTH).get(`/tokens/${fresh}`).reply(200, { token: fresh, scopes: REQUIRED, expireAt: inAYear() });
  const body = await readJson(await call('POST', '/config/verify'));
  t.like(body.data, { ok: true, missing_scopes: [], optional_missing_scopes: OPTIONAL });
  t.true(nock.isDone());
  t.is((await readJson(await call('GET', '/config'))).data.token.hint, 'RMT1');

  // Gone again right after the new mint: a refusal (422), not a loop.
  nock(TEST_OAUTH).get(`/tokens/${fresh}`).reply(404, { success: false, message: 'Token not found', error: 120 });
  const fresher = 'reminted-again-token-RMT2';
  nock(TEST_OAUTH).post('/tokens').reply(200, { token: fresher, scopes: REQUIRED });
  nock(TEST_OAUTH).get(`/tokens/${fresher}`).reply(404, { success: false, message: 'Token not found', error: 120 });
  const refused = await refusal(t, await call('POST', '/config/verify'), 422, 'PROVIDER_REFUSED');
  t.regex(refused.message, /Token not found/);
  t.false(refused.message.includes(fresher));
});

test.serial('the same API key saved again keeps the token; a new e-mail drops it', async (t) => {
  await configureWith(t, 'kept-token-KEEP');
  const again = await save(t, { account_email: EMAIL, api_key: API_KEY });
  t.is(again.data.token.hint, 'KEEP');
  const moved = await save(t, { account_email: 'other@example.com', api_key: API_KEY });
  t.is(moved.data.token, null);
});

test.serial('a saved API key that no longer opens (APP_KEY replaced) is replaced by the next save', async (t) => {
  await configureWith(t, 'token-before-rotation-ROT1');
  await app
    .ownerDb('signature_provider_config')
    .where({ id: 1 })
    .update({ api_key_sealed: 'v2:c2VhbGVkIHVuZGVyIGFub3RoZXIga2V5IQ==' });
  const saved = await save(t, { account_email: EMAIL, api_key: API_KEY });
  t.is(saved.data.token, null, 'not known to be the same account: the token is dropped');
  t.false(JSON.stringify(await configRow()).includes(API_KEY));
});

test.serial(
  'verify and the other provider calls: Openapi down (5xx) → 503 PROVIDER_UNAVAILABLE, no token in the message',
  async (t) => {
    const token = 'svc-token-down-0004';
    await configureWith(t, token);
    nock(TEST_OAUTH).get(`/tokens/${token}`).times(3).reply(503, 'upstream down');
    const body = await refusal(t, await call('POST', '/config/verify'), 503, 'PROVIDER_UNAVAILABLE');
    t.false(JSON.stringify(body).includes(token));
    nock(TEST_OAUTH).get('/wallet').times(3).reply(502, 'bad gateway');
    await refusal(t, await call('GET', '/credit'), 503, 'PROVIDER_UNAVAILABLE');
    nock(TEST_OAUTH).get('/tokens').times(3).reply(500, 'oops');
    await refusal(t, await call('GET', '/tokens'), 503, 'PROVIDER_UNAVAILABLE');
    t.true(nock.isDone());
  },
);

test.serial('GET /credit reads the wallet, on the production host outside test mode', async (t) => {
  await save(t, { account_email: EMAIL, api_key: API_KEY, test_mode: false });
  const wallet = nock(PROD_OAUTH)
    .get('/wallet')
    .matchHeader('authorization', basic())
    .reply(200, { data: { credit: 125.5, createdAt: 1700000000, updatedAt: 1764000000 }, success: true });
  const res = await call('GET', '/credit');
  t.is(res.status, 200);
  t.deepEqual((await readJson(res)).data, {
    credit: 125.5,
    currency: 'EUR',
    updated_at: new Date(1764000000 * 1000).toISOString(),
  });
  wallet.done();
  nock(PROD_OAUTH).get('/wallet').reply(401, { success: false, message: 'Wrong Token', error: 125 });
  const refused = await refusal(t, await call('GET', '/credit'), 422, 'PROVIDER_REFUSED');
  t.regex(refused.message, /Wrong Token/);
});

test.serial(
  'POST /tokens: bad input is 422; the token is answered once and kept sealed with its refresh token',
  async (t) => {
    await configureWith(t, 'svc-token-base-0005');
    await invalid(t, await call('POST', '/tokens', { scopes: [] }), 'scopes');
    await invalid(t, await call('POST', '/tokens', { scopes: ['no scope here'] }), 'scopes.0');
    await invalid(t, await call('POST', '/tokens', { scopes: REQUIRED, ttl: 400 * 86400 }), 'ttl');

    const value = 'created-token-value-NEW1';
    const expireAt = inAYear();
    const created = nock(TEST_OAUTH)
      .post('/tokens', { scopes: REQUIRED, name: 'integration', ttl: 86400 })
      .matchHeader('authorization', basic())
      .reply(200, { token: value, name: 'integration', scopes: REQUIRED, expireAt, refreshToken: 'refresh-one-R1' });
    const res = await call('POST', '/tokens', { scopes: REQUIRED, name: 'integration', ttl: 86400 });
    const body = await readJson(res);
    t.is(res.status, 201, JSON.stringify(body));
    t.regex(body.message, /shown only once/);
    t.deepEqual(body.data, {
      id: tokenIdOf(value),
      hint: 'NEW1',
      name: 'integration',
      scopes: REQUIRED,
      expires_at: new Date(expireAt * 1000).toISOString(),
      created_at: null,
      service_token: false,
      refreshable: true,
      token: value,
    });
    t.regex(body.data.id, /^tok_[0-9a-f]{24}$/);
    created.done();
    const row = await app.ownerDb('signature_provider_tokens').where({ id: body.data.id }).first();
    t.truthy(row);
    t.false(JSON.stringify(row).includes(value));
    t.false(JSON.stringify(row).includes('refresh-one-R1'));

    nock(TEST_OAUTH).post('/tokens').reply(400, { success: false, message: 'Invalid scope', error: 110 });
    const refused = await refusal(t, await call('POST', '/tokens', { scopes: REQUIRED }), 422, 'PROVIDER_REFUSED');
    t.regex(refused.message, /Invalid scope/);
  },
);

test.serial(
  'GET /tokens: ids and hints, never a whole token; which one the service uses and which refresh here',
  async (t) => {
    const service = 'svc-token-listed-SVC6';
    await configureWith(t, service);
    const made = 'made-here-token-MAD6';
    nock(TEST_OAUTH).post('/tokens').reply(200, { token: made, scopes: REQUIRED, refreshToken: 'refresh-made' });
    t.is((await call('POST', '/tokens', { scopes: REQUIRED })).status, 201);
    const elsewhere = 'console-token-CON6';
    nock(TEST_OAUTH)
      .get('/tokens')
      .matchHeader('authorization', basic())
      .reply(200, {
        data: [
          { token: service, name: 'einvoice-service', scopes: REQUIRED, expireAt: inAYear(), createdAt: 1764000000 },
          { token: made, scopes: REQUIRED, expireAt: inAYear() },
          { token: elsewhere, name: 'console', scopes: ['GET:test.oauth.openapi.com/wallet'], expireAt: null },
        ],
      });
    const res = await call('GET', '/tokens');
    const text = await res.text();
    t.is(res.status, 200, text);
    for (const value of [service, made, elsewhere]) t.false(text.includes(value), 'no whole token in the list');
    const list = JSON.parse(text).data as Record<string, unknown>[];
    t.deepEqual(
      list.map((v) => [v.id, v.hint, v.service_token, v.refreshable]),
      [
        [tokenIdOf(service), 'SVC6', true, false],
        [tokenIdOf(made), 'MAD6', false, true],
        [tokenIdOf(elsewhere), 'CON6', false, false],
      ],
    );
    t.is(list[0].created_at, new Date(1764000000 * 1000).toISOString());
  },
);

test.serial(
  "refresh: PATCH with the refresh token as bearer; the service's own token is replaced in the configuration",
  async (t) => {
    await save(t, { account_email: EMAIL, api_key: API_KEY, test_mode: true });
    const first = 'refreshable-token-OLD7';
    nock(TEST_OAUTH).post('/tokens').reply(200, { token: first, scopes: REQUIRED, refreshToken: 'refresh-old-7' });
    const created = (await readJson(await call('POST', '/tokens', { scopes: REQUIRED, name: 'svc' }))).data;
    await configureWith(t, first); // the admin makes it the service's token

    const second = 'refreshed-token-NEW7';
    const expireAt = inAYear();
    nock(TEST_OAUTH)
      .get('/tokens')
      .reply(200, { data: [{ token: first, scopes: REQUIRED }] });
    const patch = nock(TEST_OAUTH)
      .patch(`/tokens/${first}`)
      .matchHeader('authorization', 'Bearer refresh-old-7')
      .reply(200, { data: { token: second, refreshToken: 'refresh-new-7', scopes: REQUIRED, expireAt } });
    const res = await call('POST', `/tokens/${created.id}/refresh`);
    const body = await readJson(res);
    t.is(res.status, 200, JSON.stringify(body));
    t.like(body.data, { id: tokenIdOf(second), hint: 'NEW7', token: second, service_token: true, refreshable: true });
    patch.done();

    t.is(await app.ownerDb('signature_provider_tokens').where({ id: created.id }).first(), undefined, 'old pair gone');
    const kept = await app
      .ownerDb('signature_provider_tokens')
      .where({ id: tokenIdOf(second) })
      .first();
    t.false(JSON.stringify(kept).includes('refresh-new-7'));
    const config = (await readJson(await call('GET', '/config'))).data;
    t.deepEqual(config.token, { hint: 'NEW7', expires_at: new Date(expireAt * 1000).toISOString(), scopes: REQUIRED });

    // The new one refreshes with the new refresh token.
    nock(TEST_OAUTH)
      .get('/tokens')
      .reply(200, { data: [{ token: second, scopes: REQUIRED }] });
    nock(TEST_OAUTH)
      .patch(`/tokens/${second}`)
      .matchHeader('authorization', 'Bearer refresh-new-7')
      .reply(401, { success: false, message: 'Refresh token expired', error: 401 });
    const refused = await refusal(
      t,
      await call('POST', `/tokens/${tokenIdOf(second)}/refresh`),
      422,
      'PROVIDER_REFUSED',
    );
    t.regex(refused.message, /Refresh token expired/);
    t.false(refused.message.includes(second));
  },
);

test.serial('refresh: a token made elsewhere has no refresh token here (409); an unknown id is 404', async (t) => {
  await configureWith(t, 'svc-token-base-0008');
  const elsewhere = 'console-token-CON8';
  nock(TEST_OAUTH)
    .get('/tokens')
    .reply(200, { data: [{ token: elsewhere, scopes: REQUIRED }] });
  await refusal(t, await call('POST', `/tokens/${tokenIdOf(elsewhere)}/refresh`), 409, 'INVALID_STATE');
  nock(TEST_OAUTH)
    .get('/tokens')
    .reply(200, { data: [{ token: elsewhere, scopes: REQUIRED }] });
  await refusal(t, await call('POST', `/tokens/${tokenIdOf('nobody')}/refresh`), 404, 'NOT_FOUND');
  // Not of our id form (a token pasted as the id): 404 without asking Openapi.
  await refusal(t, await call('POST', `/tokens/${elsewhere}/refresh`), 404, 'NOT_FOUND');
  t.true(nock.isDone());
});

test.serial(
  "DELETE /tokens/{id}: deleted at Openapi and here; the service's own token is dropped from the configuration",
  async (t) => {
    const service = 'svc-token-deleted-DEL9';
    await configureWith(t, service);
    const made = 'made-token-deleted-MD9';
    nock(TEST_OAUTH).post('/tokens').reply(200, { token: made, scopes: REQUIRED, refreshToken: 'refresh-md9' });
    const id = (await readJson(await call('POST', '/tokens', { scopes: REQUIRED }))).data.id;

    nock(TEST_OAUTH)
      .get('/tokens')
      .reply(200, { data: [{ token: service }, { token: made }] });
    const gone = nock(TEST_OAUTH)
      .delete(`/tokens/${made}`)
      .matchHeader('authorization', basic())
      .reply(200, { message: 'Deleted', data: null });
    const res = await call('DELETE', `/tokens/${id}`);
    t.is(res.status, 200);
    t.deepEqual(await readJson(res), { message: 'Token deleted.', data: { id, deleted: true } });
    gone.done();
    t.is(await app.ownerDb('signature_provider_tokens').where({ id }).first(), undefined);
    t.is(
      (await readJson(await call('GET', '/config'))).data.token.hint,
      'DEL9',
      'another token: the service keeps its own',
    );

    nock(TEST_OAUTH)
      .get('/tokens')
      .reply(200, { data: [{ token: service }] });
    nock(TEST_OAUTH).delete(`/tokens/${service}`).reply(200, { message: 'Deleted', data: null });
    t.is((await call('DELETE', `/tokens/${tokenIdOf(service)}`)).status, 200);
    t.is(
      (await readJson(await call('GET', '/config'))).data.token,
      null,
      'the service mints another when it needs one',
    );

    nock(TEST_OAUTH).get('/tokens').reply(200, { data: [] });
    await refusal(t, await call('DELETE', `/tokens/${tokenIdOf(service)}`), 404, 'NOT_FOUND');
    t.true(nock.isDone());
  },
);
