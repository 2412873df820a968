import { randomUUID } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { ACCESS_TOKEN_FORMAT } from '../../domain/auth/access-token.js';
import { expectRefusal as refusal } from '../helpers/assertions.js';
import { cookieNamed } from '../helpers/cookies.js';
import { postJson, readJson } from '../helpers/http.js';
import { PASSWORD, seedUser, seedUserKey } from '../helpers/identities.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
});
test.after.always(() => app?.close());

const USER_FIELDS = [
  'avatar_url',
  'created_at',
  'email',
  'email_verified_at',
  'first_name',
  'id',
  'is_active',
  'last_login_at',
  'last_name',
  'phone',
  'role',
];

const newEmail = () => `new-${randomUUID()}@example.com`;
const registration = (extra: Record<string, unknown> = {}) => ({
  email: newEmail(),
  password: 'Sturdy password 42',
  first_name: 'Grace',
  last_name: 'Hopper',
  phone: '+33 6 12 34 56 78',
  ...extra,
});
const register = (body: unknown, headers: Record<string, string> = {}) =>
  app.request('/api/v1/auth/register', postJson(body, headers));
const login = (body: unknown, headers: Record<string, string> = {}) =>
  app.request('/api/v1/auth/login', postJson(body, headers));
const me = (headers: Record<string, string>) => app.request('/api/v1/auth/me', { headers });
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

async function validation(t: ExecutionContext, res: Response) {
  t.is(res.status, 422);
  const body = await readJson(res);
  t.is(typeof body.message, 'string');
  return body.errors as Record<string, string[]>;
}

// ---- register ----------------------------------------------------------------------------------

test('register: 201 {message, user, token}; a workspace with its balance, the user (role user), a bearer token', async (t) => {
  const input = registration({ email: `Mixed-${randomUUID()}@Example.com` });
  const res = await register(input);
  t.is(res.status, 201);
  t.is(res.headers.get('cache-control'), 'no-store');
  const body = await readJson(res);
  t.is(body.message, 'Registration successful.');
  t.deepEqual(Object.keys(body.user).sort(), USER_FIELDS);
  t.like(body.user, {
    email: input.email.toLowerCase(),
    first_name: 'Grace',
    last_name: 'Hopper',
    phone: '+33612345678',
    role: 'user',
    is_active: true,
    avatar_url: null,
  });
  t.regex(body.token, ACCESS_TOKEN_FORMAT);
  t.is(body.token_type, 'bearer');
  t.truthy(Date.parse(body.expires_at) > Date.now());

  const user = await app.ownerDb('users').where({ id: body.user.id }).first();
  t.regex(user.password_hash, /^scrypt\$/);
  t.deepEqual(user.permissions, []);
  const workspace = await app.ownerDb('tenants').where({ id: user.tenant_id }).first();
  t.is(workspace.kind, 'workspace');
  t.truthy(await app.ownerDb('balances').where({ tenant_id: user.tenant_id }).first());
  const token = await app.ownerDb('access_tokens').where({ user_id: user.id }).first();
  t.like(token, { kind: 'bearer', tenant_id: user.tenant_id, revoked_at: null });
  t.not(token.token_hash, body.token, 'only the hash is stored');

  const current = await me(bearer(body.token));
  t.is(current.status, 200);
  t.deepEqual((await readJson(current)).data, { ...body.user, last_login_at: body.user.last_login_at });
});

test('register: 422 email "has already been taken", whatever its case; nothing is written', async (t) => {
  const first = registration();
  t.is((await register(first)).status, 201);
  const errors = await validation(t, await register(registration({ email: first.email.toUpperCase() })));
  t.deepEqual(errors.email, ['has already been taken']);
  const workspaces = await app.ownerDb('tenants').whereRaw('lower(name) = ?', [first.email]).count({ n: '*' });
  t.is(Number(workspaces[0].n), 1, 'no second workspace');
});

test('register: weak passwords are 422 with the policy in the password field', async (t) => {
  const email = newEmail();
  const cases: [string, string][] = [
    ['Short 1', 'must be at least 10 characters'],
    ['alllowercaseletters', 'must mix at least two of: lowercase letters, uppercase letters, digits, other characters'],
    ['aaaaaaaaaaaaA1', 'must use at least 5 different characters'],
    [`${email.split('@')[0]}X1!`, 'must not contain your e-mail address'],
  ];
  for (const [password, message] of cases) {
    const errors = await validation(t, await register(registration({ email, password })));
    t.true(errors.password?.includes(message), `${password}: ${JSON.stringify(errors)}`);
  }
  t.falsy(await app.ownerDb('users').where({ email }).first(), 'no user half-written');
});

test('register: a phone that is not an international number is 422; separators and 00 are normalised', async (t) => {
  for (const phone of ['0612345678', '+0612345678', '+33 6', 'call me']) {
    const errors = await validation(t, await register(registration({ phone })));
    t.deepEqual(errors.phone, ['must be an international number such as +33612345678 (E.164)'], phone);
  }
  const res = await register(registration({ phone: '0049 (30) 1234-5678' }));
  t.is(res.status, 201);
  t.is((await readJson(res)).user.phone, '+493012345678');
});

test('register: every field is required, unknown fields are refused, the e-mail must be one', async (t) => {
  const errors = await validation(t, await register({ extra: 1 }));
  for (const field of ['email', 'password', 'first_name', 'last_name', 'phone']) t.truthy(errors[field], field);
  t.truthy(errors.extra);
  const bad = await validation(t, await register(registration({ email: 'not-an-email', first_name: '   ' })));
  t.truthy(bad.email);
  t.truthy(bad.first_name);
});

// ---- login -------------------------------------------------------------------------------------

test('login: 200 {message, user, token}; last_login_at is set and the token works', async (t) => {
  const user = await seedUser(app.ownerDb);
  const res = await login({ email: user.email.toUpperCase(), password: PASSWORD });
  t.is(res.status, 200);
  const body = await readJson(res);
  t.is(body.message, 'Login successful.');
  t.is(body.user.id, user.userId);
  t.deepEqual(Object.keys(body.user).sort(), USER_FIELDS);
  t.truthy(body.user.last_login_at);
  t.regex(body.token, ACCESS_TOKEN_FORMAT);
  t.not(body.token, user.token);
  t.is((await me(bearer(body.token))).status, 200);
  const row = await app.ownerDb('users').where({ id: user.userId }).first();
  t.truthy(row.last_login_at);
});

test('login: a wrong password and an unknown e-mail get the same 422', async (t) => {
  const user = await seedUser(app.ownerDb);
  const wrong = await login({ email: user.email, password: 'not the password' });
  const unknown = await login({ email: newEmail(), password: PASSWORD });
  t.is(wrong.status, 422);
  t.is(unknown.status, 422);
  const expected = {
    message: 'These credentials do not match our records.',
    errors: { email: ['These credentials do not match our records.'] },
  };
  t.deepEqual(await readJson(wrong), expected);
  t.deepEqual(await readJson(unknown), expected);
  t.is((await validation(t, await login({ email: user.email }))).password?.length, 1);
});

test('login: a disabled account is 422 (after the right password), and its tokens stop working', async (t) => {
  const user = await seedUser(app.ownerDb);
  await app.ownerDb('users').where({ id: user.userId }).update({ is_active: false });
  const errors = await validation(t, await login({ email: user.email, password: PASSWORD }));
  t.deepEqual(errors.email, ['This account is disabled. Contact support.']);
  await refusal(t, await me(bearer(user.token)), 403, 'ACCOUNT_DISABLED');
});

test('login: a disabled workspace is 422 too', async (t) => {
  const user = await seedUser(app.ownerDb);
  await app.ownerDb('tenants').where({ id: user.tenantId }).update({ is_active: false });
  const errors = await validation(t, await login({ email: user.email, password: PASSWORD }));
  t.deepEqual(errors.email, ['This account is disabled. Contact support.']);
});

// ---- me and logout -----------------------------------------------------------------------------

test('me: {data: User} with the specification fields only', async (t) => {
  const user = await seedUser(app.ownerDb);
  const res = await me(bearer(user.token));
  t.is(res.status, 200);
  const { data } = await readJson(res);
  t.deepEqual(Object.keys(data).sort(), USER_FIELDS);
  t.like(data, { id: user.userId, email: user.email, first_name: 'Ada', last_name: 'Lovelace', role: 'user' });
});

test('me and logout: 401 without credentials, with an unknown token, or with an API key', async (t) => {
  const user = await seedUser(app.ownerDb);
  const key = await seedUserKey(app.ownerDb, user);
  await refusal(t, await me({}), 401, 'UNAUTHENTICATED');
  await refusal(t, await me(bearer(`at_${'x'.repeat(48)}`)), 401, 'UNAUTHENTICATED');
  await refusal(t, await me({ 'X-API-Key': key }), 401, 'UNAUTHENTICATED');
  await refusal(t, await app.request('/api/v1/auth/logout', postJson({})), 401, 'UNAUTHENTICATED');
});

test('logout (bearer): 200 {message}; the token is revoked at once, other tokens keep working', async (t) => {
  const user = await seedUser(app.ownerDb);
  const other = (await readJson(await login({ email: user.email, password: PASSWORD }))).token;
  const res = await app.request('/api/v1/auth/logout', postJson({}, bearer(user.token)));
  t.is(res.status, 200);
  t.deepEqual(await readJson(res), { message: 'Logged out.' });
  t.is(cookieNamed(res, 'einvoice_session'), undefined, 'no cookie for a bearer logout');
  await refusal(t, await me(bearer(user.token)), 401, 'UNAUTHENTICATED');
  t.is((await me(bearer(other))).status, 200);
  const again = await app.request('/api/v1/auth/logout', postJson({}, bearer(user.token)));
  await refusal(t, again, 401, 'UNAUTHENTICATED');
});

// ---- the dashboard's browser flow --------------------------------------------------------------

test('browser flow: csrf-cookie → login → cookie GET → mutation without header 403 → logout → 401', async (t) => {
  const user = await seedUser(app.ownerDb);

  const csrf = await app.request('/sanctum/csrf-cookie');
  t.is(csrf.status, 204);
  t.is(await csrf.text(), '');
  const xsrf = cookieNamed(csrf, 'XSRF-TOKEN');
  t.truthy(xsrf?.value);
  t.like(xsrf?.attributes, { path: '/', secure: true, samesite: 'strict' });
  t.falsy(xsrf?.attributes.httponly, 'the dashboard script must read it');
  const withCsrf = { Cookie: `XSRF-TOKEN=${xsrf!.value}`, 'X-XSRF-TOKEN': decodeURIComponent(xsrf!.value) };

  const res = await login({ email: user.email, password: PASSWORD }, withCsrf);
  t.is(res.status, 200);
  const body = await readJson(res);
  t.is(body.token, null, 'the session lives only in the HttpOnly cookie');
  t.is(body.token_type, 'session');
  t.is(body.user.id, user.userId);
  const session = cookieNamed(res, 'einvoice_session');
  t.regex(session?.value ?? '', ACCESS_TOKEN_FORMAT);
  t.like(session?.attributes, { path: '/', httponly: true, secure: true, samesite: 'strict' });
  t.is(Date.parse(String(session?.attributes.expires)) / 1000, Math.floor(Date.parse(body.expires_at) / 1000));
  const row = await app.ownerDb('access_tokens').where({ user_id: user.userId, kind: 'session' }).first();
  t.truthy(row);

  const cookies = `einvoice_session=${session!.value}; XSRF-TOKEN=${xsrf!.value}`;
  const current = await me({ Cookie: cookies });
  t.is(current.status, 200);
  t.is((await readJson(current)).data.id, user.userId);

  const unguarded = await app.request('/api/v1/auth/logout', postJson({}, { Cookie: cookies }));
  await refusal(t, unguarded, 403, 'CSRF_TOKEN_MISMATCH');
  const mismatched = await app.request(
    '/api/v1/auth/logout',
    postJson({}, { Cookie: cookies, 'X-XSRF-TOKEN': 'another value' }),
  );
  await refusal(t, mismatched, 403, 'CSRF_TOKEN_MISMATCH');
  t.is((await me({ Cookie: cookies })).status, 200, 'the refused logout changed nothing');

  const out = await app.request(
    '/api/v1/auth/logout',
    postJson({}, { Cookie: cookies, 'X-XSRF-TOKEN': withCsrf['X-XSRF-TOKEN'] }),
  );
  t.is(out.status, 200);
  const cleared = cookieNamed(out, 'einvoice_session');
  t.is(cleared?.value, '');
  t.like(cleared?.attributes, { httponly: true, secure: true, samesite: 'strict' });
  t.true(Date.parse(String(cleared?.attributes.expires)) <= 0);

  await refusal(t, await me({ Cookie: cookies }), 401, 'UNAUTHENTICATED');
});

test('browser flow: a session cookie is not a bearer token, nor the reverse', async (t) => {
  const user = await seedUser(app.ownerDb);
  const withCsrf = { Cookie: 'XSRF-TOKEN=abc', 'X-XSRF-TOKEN': 'abc' };
  const res = await login({ email: user.email, password: PASSWORD }, withCsrf);
  const session = cookieNamed(res, 'einvoice_session')!.value;
  await refusal(t, await me(bearer(session)), 401, 'UNAUTHENTICATED');
  await refusal(t, await me({ Cookie: `einvoice_session=${user.token}` }), 401, 'UNAUTHENTICATED');
});

test('browser flow: login without the CSRF header hands out a bearer token and no cookie', async (t) => {
  const user = await seedUser(app.ownerDb);
  const res = await login({ email: user.email, password: PASSWORD }, { Cookie: 'XSRF-TOKEN=abc' });
  const body = await readJson(res);
  t.is(body.token_type, 'bearer');
  t.regex(body.token, ACCESS_TOKEN_FORMAT);
  t.is(cookieNamed(res, 'einvoice_session'), undefined);
});

test('browser flow: register in the browser opens a cookie session too', async (t) => {
  const res = await register(registration(), { Cookie: 'XSRF-TOKEN=abc', 'X-XSRF-TOKEN': 'abc' });
  t.is(res.status, 201);
  const body = await readJson(res);
  t.is(body.token, null);
  const session = cookieNamed(res, 'einvoice_session');
  t.true(session?.attributes.httponly);
  t.is((await me({ Cookie: `einvoice_session=${session!.value}` })).status, 200);
});

// ---- brute force -------------------------------------------------------------------------------

test('login throttle: repeated failures for one e-mail and IP give 429, even with the right password', async (t) => {
  // The per-IP limit of the sign-in routes is raised out of the way: this is about the throttle.
  const limited = await startTestApp({ env: { RATE_LIMITS: JSON.stringify({ credentials: { per_minute: 1000 } }) } });
  try {
    const user = await seedUser(limited.ownerDb);
    const attempt = (password: string) =>
      limited.request('/api/v1/auth/login', postJson({ email: user.email, password }));
    // A success resets the count.
    for (let i = 0; i < 9; i++) t.is((await attempt('wrong password')).status, 422);
    t.is((await attempt(PASSWORD)).status, 200);
    for (let i = 0; i < 10; i++) t.is((await attempt('wrong password')).status, 422);
    const blocked = await attempt(PASSWORD);
    t.is(blocked.status, 429);
    const body = await readJson(blocked);
    t.is(body.code, 'RATE_LIMIT_EXCEEDED');
    t.true(Number(blocked.headers.get('retry-after')) > 0);
    const otherUser = await seedUser(limited.ownerDb);
    const fine = await limited.request('/api/v1/auth/login', postJson({ email: otherUser.email, password: PASSWORD }));
    t.is(fine.status, 200, 'another e-mail is not blocked');
  } finally {
    await limited.close();
  }
});

// ---- the API description -----------------------------------------------------------------------

test('OpenAPI: the auth routes are described; the CSRF cookie route is a bodiless 204; session routes take no Idempotency-Key', async (t) => {
  const doc = await readJson(await app.request('/api/v1/openapi.json'));
  for (const [path, method] of [
    ['/api/v1/auth/register', 'post'],
    ['/api/v1/auth/login', 'post'],
    ['/api/v1/auth/logout', 'post'],
    ['/api/v1/auth/me', 'get'],
    ['/api/v1/auth/forgot-password', 'post'],
    ['/api/v1/auth/reset-password', 'post'],
    ['/api/v1/auth/google', 'get'],
    ['/api/v1/auth/google/callback', 'get'],
    ['/sanctum/csrf-cookie', 'get'],
  ]) {
    t.truthy(doc.paths[path]?.[method], `${method} ${path}`);
  }
  const csrf = doc.paths['/sanctum/csrf-cookie'].get.responses['204'];
  t.truthy(csrf);
  t.is(csrf.content, undefined);
  t.deepEqual(doc.paths['/api/v1/auth/me'].get.security, [{ Bearer: [] }, { CookieSession: [] }]);
  t.truthy(doc.paths['/api/v1/auth/register'].post.responses['201']);
  const headerNames = (path: string) =>
    (doc.paths[path].post.parameters as { name: string }[]).map((parameter) => parameter.name);
  t.false(headerNames('/api/v1/auth/login').includes('Idempotency-Key'));
  t.true(headerNames('/api/v1/auth/forgot-password').includes('Idempotency-Key'));
});
