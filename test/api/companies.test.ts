import { randomUUID } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { frenchVatKey } from '../../domain/companies/company.js';
import { KYC_REJECTED_TEST_REASON, KYC_REJECTED_TEST_SIRET } from '../../domain/companies/simulated-kyc-provider.js';
import { KYC_PROVIDER } from '../../domain/container.js';
import type { AppError } from '../../domain/shared/app-error.js';
import { luhn } from '../../domain/shared/luhn.js';
import type { JobPayloads } from '../../domain/shared/queues.js';
import { verifyCompanyKyc } from '../../workers/handlers/verify-company-kyc.js';
import { FakeKycProvider } from '../fakes/fake-kyc-provider.js';
import { expectInvalid as invalid, expectRefusal as refused } from '../helpers/assertions.js';
import { readJson } from '../helpers/http.js';
import { type SeededUser, seedUser, seedUserKey } from '../helpers/identities.js';
import { queuedJobs } from '../helpers/seed.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
const kyc = new FakeKycProvider();

test.before(async () => {
  app = await startTestApp({
    env: { RATE_LIMIT_SCALE: '0' },
    override: (container) => container.register(KYC_PROVIDER, { useValue: kyc }),
  });
});
test.after.always(() => app?.close());

/** A fresh Luhn-valid SIRET, so that concurrent tests never share one. */
function randomSiret(): string {
  const base = `7${String(Math.floor(Math.random() * 1e12)).padStart(12, '0')}`;
  for (let digit = 0; digit < 10; digit++) if (luhn(`${base}${digit}`)) return `${base}${digit}`;
  throw new Error('unreachable');
}

const companyBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Acme SAS',
  siret: randomSiret(),
  address_line1: '1 rue de la Paix',
  postal_code: '75002',
  city: 'Paris',
  ...overrides,
});

function call(user: SeededUser, method: string, path: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = { Authorization: `Bearer ${user.token}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  return app.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read loosely
async function created(t: ExecutionContext, user: SeededUser, overrides: Record<string, unknown> = {}): Promise<any> {
  const res = await call(user, 'POST', '/api/v1/companies', companyBody(overrides));
  const body = await readJson(res);
  t.is(res.status, 201, JSON.stringify(body));
  return body.data;
}

const liveCompanies = async (user: SeededUser) =>
  Number(
    (
      await app
        .ownerDb('companies')
        .where({ tenant_id: user.tenantId })
        .whereNull('deleted_at')
        .count<{ n: string }[]>({ n: '*' })
    )[0].n,
  );

/** Works one of the company's queued verification jobs (the latest by default), as the worker would. */
async function runKycJob(companyId: string, index = -1): Promise<unknown> {
  const jobs = (await queuedJobs(app.ownerDb, 'verify-company-kyc')).filter((job) => job.companyId === companyId);
  return verifyCompanyKyc(jobs.at(index) as JobPayloads['verify-company-kyc'], app.deps);
}

const kycStatus = async (user: SeededUser, id: string) =>
  (await readJson(await call(user, 'GET', `/api/v1/companies/${id}/kyc/status`))).data;

test('create, read, update and delete a company', async (t) => {
  const user = await seedUser(app.ownerDb);
  const siret = randomSiret();
  const siren = siret.slice(0, 9);
  const res = await call(
    user,
    'POST',
    '/api/v1/companies',
    companyBody({
      siret,
      vat_number: `fr ${frenchVatKey(siren)} ${siren}`,
      legal_form: 'SAS',
      address_line2: 'Bâtiment B',
      phone: '+33 1 23 45 67 89',
      email: 'billing@acme.example',
      website: 'https://acme.example',
    }),
  );
  t.is(res.status, 201);
  const body = await readJson(res);
  t.is(body.message, 'Company created.');
  const company = body.data;
  t.regex(company.id, /^[0-9a-f-]{36}$/);
  t.like(company, {
    name: 'Acme SAS',
    siret,
    vat_number: `FR${frenchVatKey(siren)}${siren}`,
    legal_form: 'SAS',
    address_line1: '1 rue de la Paix',
    address_line2: 'Bâtiment B',
    postal_code: '75002',
    city: 'Paris',
    country: 'FR',
    phone: '+33 1 23 45 67 89',
    email: 'billing@acme.example',
    website: 'https://acme.example',
    status: 'active',
    kyc_status: 'not_started',
    kyc_completed_at: null,
  });
  t.false(Number.isNaN(Date.parse(company.created_at)));

  const read = await call(user, 'GET', `/api/v1/companies/${company.id}`);
  t.is(read.status, 200);
  t.deepEqual(await readJson(read), { data: company });

  const updated = await call(user, 'PUT', `/api/v1/companies/${company.id}`, {
    city: 'Lyon',
    postal_code: '69001',
    website: null,
  });
  t.is(updated.status, 200);
  const updatedBody = await readJson(updated);
  t.is(updatedBody.message, 'Company updated.');
  t.deepEqual(updatedBody.data, { ...company, city: 'Lyon', postal_code: '69001', website: null });

  const deleted = await call(user, 'DELETE', `/api/v1/companies/${company.id}`);
  t.is(deleted.status, 200);
  t.deepEqual(await readJson(deleted), { message: 'Company deleted.' });
  await refused(t, await call(user, 'GET', `/api/v1/companies/${company.id}`), 404, 'NOT_FOUND');
});

test('the list is paginated, newest first, with only the live companies of the caller', async (t) => {
  const user = await seedUser(app.ownerDb);
  const other = await seedUser(app.ownerDb);
  await created(t, other);
  const first = await created(t, user, { name: 'First' });
  const second = await created(t, user, { name: 'Second' });
  const gone = await created(t, user, { name: 'Gone' });
  t.is((await call(user, 'DELETE', `/api/v1/companies/${gone.id}`)).status, 200);

  const all = await readJson(await call(user, 'GET', '/api/v1/companies'));
  t.deepEqual(
    all.data.map((c: { id: string }) => c.id),
    [second.id, first.id],
  );
  t.deepEqual(all.meta, { current_page: 1, last_page: 1, per_page: 25, total: 2 });

  const page = await readJson(await call(user, 'GET', '/api/v1/companies?per_page=1&page=2'));
  t.deepEqual(page, { data: [first], meta: { current_page: 2, last_page: 2, per_page: 1, total: 2 } });
  await invalid(t, await call(user, 'GET', '/api/v1/companies?per_page=101'), 'per_page');
});

test('an invalid SIRET: 422 on siret, and nothing written', async (t) => {
  const user = await seedUser(app.ownerDb);
  await invalid(
    t,
    await call(user, 'POST', '/api/v1/companies', companyBody({ siret: '1234' })),
    'siret',
    'must be 14 digits',
  );
  await invalid(
    t,
    await call(user, 'POST', '/api/v1/companies', companyBody({ siret: '73282932000075' })),
    'siret',
    'is not a valid SIRET (check digit mismatch)',
  );
  await invalid(t, await call(user, 'POST', '/api/v1/companies', companyBody({ siret: 'abcdefghijklmn' })), 'siret');
  await invalid(t, await call(user, 'POST', '/api/v1/companies', companyBody({ siret: 73282932000074 })), 'siret');
  t.is(await liveCompanies(user), 0);
});

test("La Poste's SIRETs (digit sum a multiple of 5, not Luhn) are accepted; spaces are ignored", async (t) => {
  const user = await seedUser(app.ownerDb);
  t.false(luhn('35600000049837'), 'the La Poste example fails Luhn');
  t.is((await created(t, user, { siret: '35600000049837' })).siret, '35600000049837');
  t.is((await created(t, user, { siret: '732 829 320 00074' })).siret, '73282932000074');
});

test('a SIRET used by a live company of the same user: 422 has already been taken (create and update)', async (t) => {
  const user = await seedUser(app.ownerDb);
  const other = await seedUser(app.ownerDb);
  const siret = randomSiret();
  const first = await created(t, user, { siret });
  const taken = async (res: Response) => {
    t.is(res.status, 422);
    t.deepEqual((await readJson(res)).errors, { siret: ['has already been taken'] });
  };
  await taken(await call(user, 'POST', '/api/v1/companies', companyBody({ siret })));
  const second = await created(t, user);
  await taken(await call(user, 'PUT', `/api/v1/companies/${second.id}`, { siret }));
  t.is((await readJson(await call(user, 'GET', `/api/v1/companies/${second.id}`))).data.siret, second.siret);

  await created(t, other, { siret }); // another user's companies do not count
  t.is((await call(user, 'DELETE', `/api/v1/companies/${first.id}`)).status, 200);
  await created(t, user, { siret }); // the deleted company freed it
  t.is(await liveCompanies(user), 2);
});

test('unknown and read-only fields: 422 is not an allowed property', async (t) => {
  const user = await seedUser(app.ownerDb);
  const message = 'is not an allowed property';
  await invalid(t, await call(user, 'POST', '/api/v1/companies', companyBody({ colour: 'blue' })), 'colour', message);
  const company = await created(t, user);
  for (const field of ['status', 'kyc_status', 'kyc_completed_at', 'created_at']) {
    const res = await call(user, 'PUT', `/api/v1/companies/${company.id}`, { [field]: 'x' });
    await invalid(t, res, field, message);
  }
  t.is(await liveCompanies(user), 1);
});

test('bad e-mail, website, country, postal code, phone and blank or missing fields: 422 on the field', async (t) => {
  const user = await seedUser(app.ownerDb);
  const post = (overrides: Record<string, unknown>) => call(user, 'POST', '/api/v1/companies', companyBody(overrides));
  await invalid(t, await post({ email: 'not-an-email' }), 'email', 'must be a valid email');
  await invalid(t, await post({ website: 'not a url' }), 'website');
  await invalid(t, await post({ website: 'ftp://files.acme.example' }), 'website', 'must be an http or https URL');
  for (const country of ['fr', 'FRA', 'F']) await invalid(t, await post({ country }), 'country');
  await invalid(t, await post({ country: 'ZZ' }), 'country', 'must be an ISO 3166-1 alpha-2 country code, such as FR');
  await invalid(t, await post({ postal_code: '7500' }), 'postal_code', 'must be 5 digits for a French address');
  await invalid(t, await post({ phone: 'call me' }), 'phone');
  await invalid(t, await post({ name: '   ' }), 'name', 'must not be blank');
  const { city: _city, ...withoutCity } = companyBody();
  await invalid(t, await call(user, 'POST', '/api/v1/companies', withoutCity), 'city', 'is required');
  t.is(await liveCompanies(user), 0);

  const foreign = await created(t, user, { country: 'BE', postal_code: '1000', city: 'Bruxelles' });
  t.is(foreign.country, 'BE');
  await invalid(
    t,
    await call(user, 'PUT', `/api/v1/companies/${foreign.id}`, { country: 'FR' }),
    'postal_code',
    'must be 5 digits for a French address',
  );
});

test('a French VAT number must be FR + key + the SIREN of the SIRET', async (t) => {
  const user = await seedUser(app.ownerDb);
  const siret = randomSiret();
  const siren = siret.slice(0, 9);
  const expected = `FR${frenchVatKey(siren)}${siren}`;
  t.is(frenchVatKey('303265045'), '40', 'the documentation example FR40303265045');
  const wrongKey = `FR${frenchVatKey(siren) === '00' ? '01' : '00'}${siren}`;
  await invalid(
    t,
    await call(user, 'POST', '/api/v1/companies', companyBody({ siret, vat_number: wrongKey })),
    'vat_number',
    `does not match the SIRET: its VAT number is ${expected}`,
  );
  await invalid(t, await call(user, 'POST', '/api/v1/companies', companyBody({ vat_number: 'X' })), 'vat_number');
  const company = await created(t, user, { siret, vat_number: expected });
  t.is((await created(t, user, { vat_number: 'DE123456789' })).vat_number, 'DE123456789');
  // Changing the SIRET alone re-checks the stored VAT number against the new SIREN.
  await invalid(t, await call(user, 'PUT', `/api/v1/companies/${company.id}`, { siret: randomSiret() }), 'vat_number');
});

test('PUT needs at least one field', async (t) => {
  const user = await seedUser(app.ownerDb);
  const company = await created(t, user);
  await invalid(t, await call(user, 'PUT', `/api/v1/companies/${company.id}`, {}), 'body');
});

test("another user's company, a deleted one or a malformed id: 404 NOT_FOUND on every route", async (t) => {
  const user = await seedUser(app.ownerDb);
  const other = await seedUser(app.ownerDb);
  const theirs = await created(t, other);
  const deleted = await created(t, user);
  t.is((await call(user, 'DELETE', `/api/v1/companies/${deleted.id}`)).status, 200);
  const routes: [string, string, unknown?][] = [
    ['GET', ''],
    ['PUT', '', { city: 'Nantes' }],
    ['DELETE', ''],
    ['POST', '/kyc', {}],
    ['GET', '/kyc/status'],
  ];
  for (const id of [theirs.id, deleted.id, 'not-a-uuid', '123', randomUUID()]) {
    for (const [method, suffix, body] of routes) {
      await refused(t, await call(user, method, `/api/v1/companies/${id}${suffix}`, body), 404, 'NOT_FOUND');
    }
  }
  const untouched = await readJson(await call(other, 'GET', `/api/v1/companies/${theirs.id}`));
  t.deepEqual(untouched.data, theirs);
  t.is(kyc.startsFor(theirs.id), 0);
});

test('deleting a company keeps its row, frees its SIRET and revokes the API keys restricted to it', async (t) => {
  const user = await seedUser(app.ownerDb);
  const company = await created(t, user);
  const kept = await created(t, user);
  const restricted = await seedUserKey(app.ownerDb, user, { companyId: company.id });
  const unrestricted = await seedUserKey(app.ownerDb, user);
  const elsewhere = await seedUserKey(app.ownerDb, user, { companyId: kept.id });
  const balance = (key: string) => app.request('/api/v1/balance', { headers: { 'X-API-Key': key } });
  t.is((await balance(restricted)).status, 200);

  t.is((await call(user, 'DELETE', `/api/v1/companies/${company.id}`)).status, 200);

  const row = await app.ownerDb('companies').where({ id: company.id }).first();
  t.true(row.deleted_at instanceof Date);
  const keys = await app.ownerDb('api_keys').where({ tenant_id: user.tenantId }).orderBy('created_at');
  const byKey = (key: string) => keys.find((k) => k.key_prefix === key.slice(0, 12));
  t.like(byKey(restricted), { status: 'revoked', revoked_reason: 'company deleted' });
  t.true(byKey(restricted).revoked_at instanceof Date);
  t.like(byKey(unrestricted), { status: 'active', revoked_reason: null });
  t.like(byKey(elsewhere), { status: 'active', revoked_reason: null });
  await refused(t, await balance(restricted), 401, 'API_KEY_REVOKED');
  t.is((await balance(unrestricted)).status, 200);
  await created(t, user, { siret: company.siret });
});

test('KYC: start (202 pending), start again (same verification, no second provider call), job, completed, 409', async (t) => {
  const user = await seedUser(app.ownerDb);
  const company = await created(t, user);
  t.deepEqual(await kycStatus(user, company.id), {
    status: 'not_started',
    completed_at: null,
    reference: null,
    started_at: null,
    failure_reason: null,
  });

  const started = await call(user, 'POST', `/api/v1/companies/${company.id}/kyc`);
  t.is(started.status, 202);
  const body = await readJson(started);
  t.is(body.message, 'KYC verification in progress.');
  t.like(body.data, { status: 'pending', verification_url: null });
  t.regex(body.data.reference, /^kyc_sim_[A-Za-z0-9]{24}$/);
  t.false(Number.isNaN(Date.parse(body.data.started_at)));
  t.is(kyc.startsFor(company.id), 1);
  t.like(
    kyc.starts.find((s) => s.companyId === company.id),
    { siret: company.siret, name: 'Acme SAS' },
  );

  const again = await call(user, 'POST', `/api/v1/companies/${company.id}/kyc`, {});
  t.is(again.status, 202);
  t.deepEqual((await readJson(again)).data, body.data);
  t.is(kyc.startsFor(company.id), 1, 'no second provider call');
  const jobs = (await queuedJobs(app.ownerDb, 'verify-company-kyc')).filter((job) => job.companyId === company.id);
  t.deepEqual(jobs, [
    { tenantId: user.tenantId, companyId: company.id, reference: body.data.reference, siret: company.siret },
  ]);
  t.like(await kycStatus(user, company.id), { status: 'pending', reference: body.data.reference });

  await runKycJob(company.id);
  const done = await kycStatus(user, company.id);
  t.like(done, { status: 'completed', reference: body.data.reference, failure_reason: null });
  t.false(Number.isNaN(Date.parse(done.completed_at)));
  const read = (await readJson(await call(user, 'GET', `/api/v1/companies/${company.id}`))).data;
  t.like(read, { kyc_status: 'completed', kyc_completed_at: done.completed_at });

  await refused(t, await call(user, 'POST', `/api/v1/companies/${company.id}/kyc`), 409, 'CONFLICT');
  t.is(kyc.startsFor(company.id), 1);
  // The verified SIRET is locked; other fields stay editable.
  await invalid(t, await call(user, 'PUT', `/api/v1/companies/${company.id}`, { siret: randomSiret() }), 'siret');
  t.is(
    (
      await call(user, 'PUT', `/api/v1/companies/${company.id}`, {
        siret: company.siret,
        city: 'Lille',
        postal_code: '59000',
      })
    ).status,
    200,
  );
});

test('the simulator rejects the documented test SIRET: failed with the reason, and KYC can start again', async (t) => {
  const user = await seedUser(app.ownerDb);
  const company = await created(t, user, { siret: KYC_REJECTED_TEST_SIRET });
  const first = (await readJson(await call(user, 'POST', `/api/v1/companies/${company.id}/kyc`))).data;
  await runKycJob(company.id);
  t.like(await kycStatus(user, company.id), {
    status: 'failed',
    completed_at: null,
    reference: first.reference,
    failure_reason: KYC_REJECTED_TEST_REASON,
  });
  t.like((await readJson(await call(user, 'GET', `/api/v1/companies/${company.id}`))).data, {
    kyc_status: 'failed',
    kyc_completed_at: null,
  });
  const live = await seedUserKey(app.ownerDb, user, { environment: 'production' });
  await refused(t, await app.request('/api/v1/balance', { headers: { 'X-API-Key': live } }), 403, 'KYC_REQUIRED');

  const retry = await call(user, 'POST', `/api/v1/companies/${company.id}/kyc`);
  t.is(retry.status, 202);
  t.not((await readJson(retry)).data.reference, first.reference);
  t.is(kyc.startsFor(company.id), 2);
  t.like(await kycStatus(user, company.id), { status: 'pending', failure_reason: null });
  // The first verification's job, run late, does not touch the new one.
  t.like(await runKycJob(company.id, 0), { skipped: true, status: 'pending' });
  t.is((await kycStatus(user, company.id)).status, 'pending');
});

test('a production user key: 403 KYC_REQUIRED on GET /api/v1/balance until the KYC completes, then 200', async (t) => {
  const user = await seedUser(app.ownerDb);
  const company = await created(t, user);
  const live = await seedUserKey(app.ownerDb, user, { environment: 'production', companyId: company.id });
  const balance = () => app.request('/api/v1/balance', { headers: { 'X-API-Key': live } });
  await refused(t, await balance(), 403, 'KYC_REQUIRED');
  t.is((await call(user, 'POST', `/api/v1/companies/${company.id}/kyc`)).status, 202);
  await refused(t, await balance(), 403, 'KYC_REQUIRED');
  await runKycJob(company.id);
  const res = await balance();
  t.is(res.status, 200);
  t.is((await readJson(res)).data.currency, 'EUR');
});

test('a provider that does not answer: 503 PROVIDER_UNAVAILABLE and nothing written', async (t) => {
  const user = await seedUser(app.ownerDb);
  const company = await created(t, user);
  kyc.down.add(company.siret);
  await refused(t, await call(user, 'POST', `/api/v1/companies/${company.id}/kyc`), 503, 'PROVIDER_UNAVAILABLE');
  t.like(await kycStatus(user, company.id), { status: 'not_started', reference: null });
  t.deepEqual(
    (await queuedJobs(app.ownerDb, 'verify-company-kyc')).filter((job) => job.companyId === company.id),
    [],
  );
  kyc.down.delete(company.siret);
  t.is((await call(user, 'POST', `/api/v1/companies/${company.id}/kyc`)).status, 202);
});

test('the verification job retries while the provider is pending, records once, and skips stale work', async (t) => {
  const user = await seedUser(app.ownerDb);
  const company = await created(t, user);
  kyc.stillPending.add(company.siret);
  t.is((await call(user, 'POST', `/api/v1/companies/${company.id}/kyc`)).status, 202);
  const pending = await t.throwsAsync(runKycJob(company.id));
  t.like(pending as AppError, { code: 'PROVIDER_UNAVAILABLE' });
  t.not((pending as AppError).extra.retryable, false, 'pg-boss retries it');
  t.is((await kycStatus(user, company.id)).status, 'pending');

  kyc.stillPending.delete(company.siret);
  kyc.down.add(company.siret);
  const down = await t.throwsAsync(runKycJob(company.id));
  t.like(down as AppError, { code: 'PROVIDER_UNAVAILABLE' });
  kyc.down.delete(company.siret);

  await runKycJob(company.id);
  const done = await kycStatus(user, company.id);
  t.is(done.status, 'completed');
  // This company's checks only: the other tests of the file run at the same time on the same fake.
  const { kyc_reference: reference } = await app.ownerDb('companies').where({ id: company.id }).first();
  const checksOfCompany = () => kyc.checks.filter((c) => c.reference === reference).length;
  const checks = checksOfCompany();
  t.true(checks >= 3, 'pending, down, then completed: three checks');
  t.like(await runKycJob(company.id), { skipped: true, status: 'completed' });
  t.is(checksOfCompany(), checks, 'a retry after success does not ask the provider again');
  t.deepEqual(await kycStatus(user, company.id), done);

  const deleted = await created(t, user);
  t.is((await call(user, 'POST', `/api/v1/companies/${deleted.id}/kyc`)).status, 202);
  t.is((await call(user, 'DELETE', `/api/v1/companies/${deleted.id}`)).status, 200);
  t.like(await runKycJob(deleted.id), { skipped: true, status: 'deleted' });
});

test('companies take the dashboard credentials only', async (t) => {
  await refused(t, await app.request('/api/v1/companies'), 401, 'UNAUTHENTICATED');
  const user = await seedUser(app.ownerDb);
  const key = await seedUserKey(app.ownerDb, user);
  await refused(t, await app.request('/api/v1/companies', { headers: { 'X-API-Key': key } }), 401, 'UNAUTHENTICATED');
});
