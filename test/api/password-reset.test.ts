import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { RESET_REQUESTED } from '../../domain/users/operations/request-password-reset.js';
import { sendPasswordReset } from '../../workers/handlers/send-password-reset.js';
import { postJson, readJson } from '../helpers/http.js';
import { PASSWORD, type SeededUser, seedUser } from '../helpers/identities.js';
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

const NEW_PASSWORD = 'Brand new secret 2026';

const forgot = (email: string) => app.request('/api/v1/auth/forgot-password', postJson({ email }));
const reset = (body: Record<string, unknown>) => app.request('/api/v1/auth/reset-password', postJson(body));
const login = (email: string, password: string) => app.request('/api/v1/auth/login', postJson({ email, password }));

interface JobRow {
  id: string;
  data: { tenantId: string; userId: string };
  output: unknown;
}
const jobsFor = async (userId: string): Promise<JobRow[]> =>
  (
    await app.ownerDb.raw<{ rows: JobRow[] }>(
      "select id, data, output from pgboss.job where name = 'send-password-reset' and data->>'userId' = ? order by created_on",
      [userId],
    )
  ).rows;

/** Runs the queued job the way the worker does, then reads the link out of the mail log. */
async function mailedToken(t: ExecutionContext, user: SeededUser): Promise<string> {
  const [job] = await jobsFor(user.userId);
  t.truthy(job, 'a job was queued');
  t.deepEqual(job.data, { tenantId: user.tenantId, userId: user.userId });
  const output = await sendPasswordReset(job.data, app.deps);
  t.deepEqual(output, { user_id: user.userId, sent: true }, 'the job output never carries the token');
  return lastTokenFor(user.email);
}

async function lastTokenFor(email: string): Promise<string> {
  const log = await readFile(mailLog, 'utf8');
  const links = [...log.matchAll(/^(https:\/\/\S+\/reset-password\?\S+)$/gm)]
    .map((m) => new URL(m[1]))
    .filter((url) => url.searchParams.get('email') === email);
  return links.at(-1)!.searchParams.get('token')!;
}

async function validation(t: ExecutionContext, res: Response): Promise<Record<string, string[]>> {
  t.is(res.status, 422);
  return (await readJson(res)).errors;
}

test('forgot-password: the same 200 whether the account exists, is disabled or not; a job only for an active one', async (t) => {
  const user = await seedUser(app.ownerDb);
  const disabled = await seedUser(app.ownerDb);
  await app.ownerDb('users').where({ id: disabled.userId }).update({ is_active: false });
  const answers = [];
  for (const email of [user.email, `nobody-${randomUUID()}@example.com`, disabled.email]) {
    const res = await forgot(email);
    t.is(res.status, 200);
    answers.push(await readJson(res));
  }
  t.deepEqual(answers, [{ message: RESET_REQUESTED }, { message: RESET_REQUESTED }, { message: RESET_REQUESTED }]);
  t.is((await jobsFor(user.userId)).length, 1);
  t.is((await jobsFor(disabled.userId)).length, 0);
});

test('forgot-password: 422 without a valid e-mail', async (t) => {
  t.truthy((await validation(t, await forgot('not an email'))).email);
});

test('forgot-password: one mail a minute per user, however often the form is sent', async (t) => {
  const user = await seedUser(app.ownerDb);
  for (let i = 0; i < 3; i++) t.is((await forgot(user.email)).status, 200);
  t.is((await jobsFor(user.userId)).length, 1);
});

test('the mail: readable plain text in the mail log with From, To, Subject, Date and the link', async (t) => {
  const user = await seedUser(app.ownerDb);
  await forgot(user.email);
  const token = await mailedToken(t, user);
  t.regex(token, /^[A-Za-z0-9]{64}$/);
  const log = await readFile(mailLog, 'utf8');
  const entry = log.split(/^=+$/m).find((part) => part.includes(token))!;
  t.regex(entry, /^From: E-invoicing <no-reply@localhost>$/m);
  t.regex(entry, new RegExp(`^To: ${user.email.replace(/[.]/g, '\\.')}$`, 'm'));
  t.regex(entry, /^Subject: Reset your password$/m);
  t.regex(entry, /^Date: \w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/m);
  t.true(entry.includes(`https://app.example.com/reset-password?${new URLSearchParams({ token, email: user.email })}`));
  const row = await app.ownerDb('password_resets').where({ user_id: user.userId }).first();
  t.is(row.token_hash, createHash('sha256').update(token).digest('hex'), 'only the SHA-256 is stored');
  t.is(row.tenant_id, user.tenantId);
  const minutes = (row.expires_at.getTime() - row.created_at.getTime()) / 60_000;
  t.is(minutes, 60);
});

test('reset-password: end to end; old sessions revoked, old password refused, the token works once', async (t) => {
  const user = await seedUser(app.ownerDb);
  await forgot(user.email);
  const token = await mailedToken(t, user);

  const res = await reset({ token, email: user.email, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD });
  t.is(res.status, 200);
  t.deepEqual(await readJson(res), { message: 'Your password has been reset. Sign in with the new password.' });

  const me = await app.request('/api/v1/auth/me', { headers: { Authorization: `Bearer ${user.token}` } });
  t.is(me.status, 401, 'every token of the account is revoked');
  t.is((await login(user.email, PASSWORD)).status, 422);
  t.is((await login(user.email, NEW_PASSWORD)).status, 200);
  const row = await app.ownerDb('password_resets').where({ user_id: user.userId }).first();
  t.truthy(row.used_at);

  const again = await reset({
    token,
    email: user.email,
    password: 'Another one 2027!',
    password_confirmation: 'Another one 2027!',
  });
  t.deepEqual((await validation(t, again)).token, [
    'This password reset token is invalid or has expired. Ask for a new link.',
  ]);
});

test('reset-password: a new mail invalidates the earlier unused link', async (t) => {
  const user = await seedUser(app.ownerDb);
  await forgot(user.email);
  const [job] = await jobsFor(user.userId);
  await sendPasswordReset(job.data, app.deps);
  const first = await lastTokenFor(user.email);
  await sendPasswordReset(job.data, app.deps);
  const second = await lastTokenFor(user.email);
  t.not(first, second);
  const body = (token: string) => ({
    token,
    email: user.email,
    password: NEW_PASSWORD,
    password_confirmation: NEW_PASSWORD,
  });
  t.truthy((await validation(t, await reset(body(first)))).token);
  t.is((await reset(body(second))).status, 200);
});

test('reset-password: an expired token, another e-mail or an unknown token are 422 on token', async (t) => {
  const user = await seedUser(app.ownerDb);
  const other = await seedUser(app.ownerDb);
  await forgot(user.email);
  const token = await mailedToken(t, user);
  const body = (extra: Record<string, unknown>) => ({
    token,
    email: user.email,
    password: NEW_PASSWORD,
    password_confirmation: NEW_PASSWORD,
    ...extra,
  });
  t.truthy((await validation(t, await reset(body({ email: other.email })))).token);
  t.truthy((await validation(t, await reset(body({ token: 'x'.repeat(64) })))).token);
  await app
    .ownerDb('password_resets')
    .where({ user_id: user.userId })
    .update({ expires_at: new Date(Date.now() - 1000) });
  t.truthy((await validation(t, await reset(body({})))).token);
  t.is((await login(user.email, PASSWORD)).status, 200, 'the password did not change');
});

test('reset-password: weak password and wrong confirmation are 422 with field errors; nothing is used up', async (t) => {
  const user = await seedUser(app.ownerDb);
  await forgot(user.email);
  const token = await mailedToken(t, user);
  const weak = await validation(
    t,
    await reset({ token, email: user.email, password: 'short', password_confirmation: 'short' }),
  );
  t.true(weak.password.includes('must be at least 10 characters'));
  const mismatch = await validation(
    t,
    await reset({ token, email: user.email, password: NEW_PASSWORD, password_confirmation: `${NEW_PASSWORD}!` }),
  );
  t.deepEqual(mismatch.password_confirmation, ['does not match password']);
  const missing = await validation(t, await reset({ email: user.email }));
  for (const field of ['token', 'password', 'password_confirmation']) t.truthy(missing[field], field);
  const ok = await reset({ token, email: user.email, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD });
  t.is(ok.status, 200, 'the refused attempts did not use the token');
});

test('the job: a user disabled after asking gets no mail and no token', async (t) => {
  const user = await seedUser(app.ownerDb);
  await forgot(user.email);
  await app.ownerDb('users').where({ id: user.userId }).update({ is_active: false });
  const [job] = await jobsFor(user.userId);
  t.deepEqual(await sendPasswordReset(job.data, app.deps), { user_id: user.userId, sent: false });
  t.falsy(await app.ownerDb('password_resets').where({ user_id: user.userId }).first());
});
