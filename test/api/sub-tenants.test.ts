import { randomUUID } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { TENANT_KEY_SCOPES } from '../../domain/tenants/api-key.js';
import { insertApiKey } from '../../domain/tenants/api-key-store.js';
import { isValidSiret } from '../../domain/tenants/siret.js';
import { expectRefusal as refusal } from '../helpers/assertions.js';
import { seedFiscalEntries } from '../helpers/fiscal-entries.js';
import { postJson, readJson } from '../helpers/http.js';
import { type SeededTenant, seedPlatformTenant, seedUser, seedUserKey } from '../helpers/identities.js';
import { waitFor } from '../helpers/processes.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let tenant: SeededTenant;
let stranger: SeededTenant;

test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
  tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  stranger = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
});
test.after.always(() => app?.close());

const BASE = '/api/v1/tenant/sub-tenants';
const SIRET = '73282932000074';
const VAT = 'FR44732829320';

const call = (key: string, path: string, init: RequestInit = {}) =>
  app.request(`${BASE}${path}`, { ...init, headers: { 'X-Tenant-Key': key, ...(init.headers as object) } });
const get = (key: string, path = '') => call(key, path);
const create = (key: string, body: unknown) => call(key, '', postJson(body));
const put = (key: string, id: string, body: unknown) =>
  call(key, `/${id}`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
const remove = (key: string, id: string) => call(key, `/${id}`, { method: 'DELETE' });

const ext = () => `client-${randomUUID()}`;

/** Creates a sub-tenant through the API and returns its view. */
async function seedSubTenant(key: string, body: Record<string, unknown> = {}) {
  const res = await create(key, { external_id: ext(), name: 'Client SARL', ...body });
  if (res.status !== 201) throw new Error(`seed failed: ${res.status} ${await res.text()}`);
  return (await readJson(res)).data;
}

async function invalid(t: ExecutionContext, res: Response, fields: string[]) {
  t.is(res.status, 422);
  const body = await readJson(res);
  t.deepEqual(Object.keys(body.errors).sort(), [...fields].sort(), JSON.stringify(body));
  return body;
}

/** A random Luhn-valid SIRET: live companies of one tenant need distinct ones. */
function randomSiret(): string {
  const base = Array.from({ length: 13 }, () => Math.floor(Math.random() * 10)).join('');
  for (let d = 0; d <= 9; d++) if (isValidSiret(`${base}${d}`)) return `${base}${d}`;
  throw new Error('unreachable');
}

async function seedCompany(tenantId: string, subTenantId: string, options: { deleted?: boolean } = {}) {
  const [row] = await app
    .ownerDb('companies')
    .insert({
      tenant_id: tenantId,
      sub_tenant_id: subTenantId,
      name: 'Client Company',
      siret: randomSiret(),
      address_line1: '1 rue de la Paix',
      postal_code: '75002',
      city: 'Paris',
      deleted_at: options.deleted ? new Date() : null,
    })
    .returning<{ id: string }[]>('id');
  return row.id;
}

test('create: 201 {message, data} with every field, stored in the environment of the key', async (t) => {
  const externalId = ext();
  const res = await create(tenant.keys.sk_test, {
    external_id: externalId,
    name: 'Client SARL',
    email: 'billing@client.example',
    siret: SIRET,
    vat_number: VAT,
    address: { line1: '1 rue de la Paix', city: 'Paris', postal_code: '75002' },
    metadata: { crm_id: 'C-42', tier: 2, vip: true, note: null },
  });
  t.is(res.status, 201);
  const body = await readJson(res);
  t.is(body.message, 'Sub-tenant created.');
  t.like(body.data, {
    tenant_id: tenant.tenantId,
    external_id: externalId,
    name: 'Client SARL',
    email: 'billing@client.example',
    siret: SIRET,
    vat_number: VAT,
    address: { line1: '1 rue de la Paix', city: 'Paris', postal_code: '75002' },
    status: 'active',
    onboarding_status: 'pending',
    environment: 'sandbox',
    metadata: { crm_id: 'C-42', tier: 2, vip: true, note: null },
  });
  t.regex(body.data.id, /^[0-9a-f-]{36}$/);
  const row = await app.ownerDb('sub_tenants').where({ id: body.data.id }).first();
  t.like(row, { tenant_id: tenant.tenantId, environment: 'sandbox', external_id: externalId });

  const minimal = await readJson(await create(tenant.keys.sk_live, { external_id: ext(), name: 'Minimal' }));
  t.like(minimal.data, {
    environment: 'production',
    email: null,
    siret: null,
    vat_number: null,
    address: { line1: null, city: null, postal_code: null },
    metadata: {},
  });
});

test('create: 422 with field paths for missing, malformed and unknown fields; nothing written', async (t) => {
  const key = tenant.keys.sk_test;
  const externalId = ext();
  await invalid(t, await create(key, {}), ['external_id', 'name']);
  await invalid(t, await create(key, { external_id: externalId, name: '  ' }), ['name']);
  await invalid(t, await create(key, { external_id: externalId, name: 'X', siret: '12345678901234' }), ['siret']);
  await invalid(t, await create(key, { external_id: externalId, name: 'X', siret: '7328293200007' }), ['siret']);
  await invalid(t, await create(key, { external_id: externalId, name: 'X', vat_number: 'FR00732829320' }), [
    'vat_number',
  ]);
  await invalid(t, await create(key, { external_id: externalId, name: 'X', vat_number: 'fr44 732' }), ['vat_number']);
  await invalid(t, await create(key, { external_id: externalId, name: 'X', email: 'not-an-email' }), ['email']);
  await invalid(t, await create(key, { external_id: externalId, name: 'X', address: { street: 'x' } }), [
    'address.street',
  ]);
  await invalid(t, await create(key, { external_id: 'a\nb', name: 'X' }), ['external_id']);
  await invalid(t, await create(key, { external_id: 'x'.repeat(256), name: 'X' }), ['external_id']);
  await invalid(t, await create(key, { external_id: externalId, name: 'X', plan: 'gold' }), ['plan']);
  t.is((await app.ownerDb('sub_tenants').where({ external_id: externalId })).length, 0);
});

test('create: metadata is bounded (50 keys, 40-character keys, 500-character scalar values)', async (t) => {
  const key = tenant.keys.sk_test;
  const body = (metadata: unknown) => ({ external_id: ext(), name: 'X', metadata });
  const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v']));
  t.is((await create(key, body(fifty))).status, 201);
  await invalid(t, await create(key, body({ ...fifty, k50: 'v' })), ['metadata']);
  await invalid(t, await create(key, body({ ['k'.repeat(41)]: 'v' })), ['metadata']);
  await invalid(t, await create(key, body({ note: 'v'.repeat(501) })), ['metadata.note']);
  await invalid(t, await create(key, body({ nested: { a: 1 } })), ['metadata.nested']);
  await invalid(t, await create(key, body(['a'])), ['metadata']);
});

test('create: a reused external_id gives 409 DUPLICATE_EXTERNAL_ID with existing_id, per tenant and environment', async (t) => {
  const externalId = ext();
  const first = await seedSubTenant(tenant.keys.sk_test, { external_id: externalId });
  const dup = await refusal(
    t,
    await create(tenant.keys.sk_test, { external_id: externalId, name: 'Again' }),
    409,
    'DUPLICATE_EXTERNAL_ID',
  );
  t.is(dup.existing_id, first.id);
  // The same identifier is free in the other environment and for another tenant.
  t.is((await create(tenant.keys.sk_live, { external_id: externalId, name: 'Live twin' })).status, 201);
  t.is((await create(stranger.keys.sk_test, { external_id: externalId, name: 'Stranger' })).status, 201);
  t.is((await app.ownerDb('sub_tenants').where({ tenant_id: tenant.tenantId, external_id: externalId })).length, 2);
});

test('create: concurrent requests with one external_id make one sub-tenant; the others get 409 with its id', async (t) => {
  const externalId = ext();
  const responses = await Promise.all(
    Array.from({ length: 6 }, (_, i) => create(tenant.keys.sk_test, { external_id: externalId, name: `Racer ${i}` })),
  );
  const bodies = await Promise.all(responses.map((res) => readJson(res)));
  const created = bodies.filter((_, i) => responses[i].status === 201);
  t.is(created.length, 1);
  for (const [i, body] of bodies.entries()) {
    if (responses[i].status === 201) continue;
    t.is(responses[i].status, 409);
    t.is(body.code, 'DUPLICATE_EXTERNAL_ID');
    t.is(body.existing_id, created[0].data.id);
  }
});

test('create: losing the race on the unique index still answers 409 DUPLICATE_EXTERNAL_ID with existing_id', async (t) => {
  const externalId = ext();
  // Another transaction holds the identifier uncommitted: the pre-check cannot see it, the unique index waits for it.
  const other = await app.ownerDb.transaction();
  const [row] = await other('sub_tenants')
    .insert({ tenant_id: tenant.tenantId, environment: 'sandbox', external_id: externalId, name: 'First' })
    .returning<{ id: string }[]>('id');
  const pending = create(tenant.keys.sk_test, { external_id: externalId, name: 'Second' });
  await waitFor(async () => {
    const { rows } = await app.ownerDb.raw(
      "select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike 'insert into \"sub_tenants\"%'",
    );
    return rows.length > 0;
  });
  await other.commit();
  const body = await refusal(t, await pending, 409, 'DUPLICATE_EXTERNAL_ID');
  t.is(body.existing_id, row.id);
  t.is((await app.ownerDb('sub_tenants').where({ tenant_id: tenant.tenantId, external_id: externalId })).length, 1);
});

test('list: {data, meta} of the key’s environment only, newest first, paginated', async (t) => {
  const owner = await seedPlatformTenant(app.ownerDb);
  const made = [];
  for (let i = 0; i < 3; i++) made.push(await seedSubTenant(owner.keys.sk_test, { name: `Sandbox ${i}` }));
  await seedSubTenant(owner.keys.sk_live, { name: 'Production one' });

  const body = await readJson(await get(owner.keys.sk_test, '?per_page=2'));
  t.deepEqual(body.meta, { current_page: 1, last_page: 2, per_page: 2, total: 3 });
  t.deepEqual(
    body.data.map((s: { name: string }) => s.name),
    ['Sandbox 2', 'Sandbox 1'],
  );
  const page2 = await readJson(await get(owner.keys.sk_test, '?per_page=2&page=2'));
  t.deepEqual(
    page2.data.map((s: { id: string }) => s.id),
    [made[0].id],
  );
  const live = await readJson(await get(owner.keys.sk_live));
  t.deepEqual(
    live.data.map((s: { name: string }) => s.name),
    ['Production one'],
  );
  t.is(live.meta.per_page, 25);
  await invalid(t, await get(owner.keys.sk_test, '?per_page=101'), ['per_page']);
  await invalid(t, await get(owner.keys.sk_test, '?status=deleted'), ['status']);
  await invalid(t, await get(owner.keys.sk_test, '?sort=name'), ['sort']);
});

test('list: filters status and onboarding_status; q searches name, email and external_id literally', async (t) => {
  const owner = await seedPlatformTenant(app.ownerDb);
  const key = owner.keys.sk_test;
  const acme = await seedSubTenant(key, { name: 'Acme Paris', external_id: 'crm-001' });
  const globex = await seedSubTenant(key, { name: 'Globex', email: 'ops@acme-group.example', external_id: 'crm-002' });
  const initech = await seedSubTenant(key, { name: 'Initech 100%', external_id: 'ACME_LEGACY' });
  await app.ownerDb('sub_tenants').where({ id: globex.id }).update({ status: 'suspended' });
  await app.ownerDb('sub_tenants').where({ id: initech.id }).update({ onboarding_status: 'completed' });

  const names = async (query: string) =>
    (await readJson(await get(key, query))).data.map((s: { name: string }) => s.name).sort();
  t.deepEqual(await names('?status=suspended'), ['Globex']);
  t.deepEqual(await names('?status=active'), ['Acme Paris', 'Initech 100%']);
  t.deepEqual(await names('?onboarding_status=completed'), ['Initech 100%']);
  t.deepEqual(await names('?onboarding_status=pending&status=active'), ['Acme Paris']);
  t.deepEqual(await names('?q=acme'), ['Acme Paris', 'Globex', 'Initech 100%']);
  t.deepEqual(await names('?q=CRM-00'), ['Acme Paris', 'Globex']);
  t.deepEqual(await names(`?q=${encodeURIComponent('100%')}`), ['Initech 100%']);
  t.deepEqual(await names(`?q=${encodeURIComponent('%')}`), ['Initech 100%'], '% is not a wildcard');
  t.deepEqual(await names('?q=E_L'), ['Initech 100%'], '_ is not a wildcard');
  t.deepEqual(await names('?q=acme&status=suspended'), ['Globex']);
  t.is(acme.status, 'active');
});

test('get and by-external-id: 200 for one’s own; 404 for another tenant, the other environment, a bad id', async (t) => {
  const mine = await seedSubTenant(tenant.keys.sk_test);
  const theirs = await seedSubTenant(stranger.keys.sk_test);
  const got = await readJson(await get(tenant.keys.sk_test, `/${mine.id}`));
  t.deepEqual(got.data, mine);
  const found = await readJson(
    await get(tenant.keys.sk_test, `/by-external-id/${encodeURIComponent(mine.external_id)}`),
  );
  t.deepEqual(found.data, mine);

  for (const path of [
    `/${theirs.id}`,
    `/by-external-id/${theirs.external_id}`,
    `/${randomUUID()}`,
    '/not-a-uuid',
    `/${mine.id}x`,
    `/by-external-id/${'x'.repeat(300)}`,
    '/by-external-id/unknown',
  ]) {
    await refusal(t, await get(tenant.keys.sk_test, path), 404, 'NOT_FOUND');
  }
  // The other environment of the same tenant does not see it either.
  await refusal(t, await get(tenant.keys.sk_live, `/${mine.id}`), 404, 'NOT_FOUND');
  await refusal(t, await get(tenant.keys.sk_live, `/by-external-id/${mine.external_id}`), 404, 'NOT_FOUND');
});

test('external ids with spaces, slashes and accents are found by-external-id', async (t) => {
  const externalId = `Client/Éric ${randomUUID()}`;
  const made = await seedSubTenant(tenant.keys.sk_test, { external_id: externalId });
  const res = await get(tenant.keys.sk_test, `/by-external-id/${encodeURIComponent(externalId)}`);
  t.is(res.status, 200);
  t.is((await readJson(res)).data.id, made.id);
});

test('update: changes the given fields only; null clears; address and metadata are replaced', async (t) => {
  const made = await seedSubTenant(tenant.keys.sk_test, {
    email: 'old@client.example',
    siret: SIRET,
    address: { line1: '1 rue A', city: 'Lyon', postal_code: '69001' },
    metadata: { a: '1', b: '2' },
  });
  const res = await put(tenant.keys.sk_test, made.id, {
    name: 'Renamed',
    email: null,
    address: { city: 'Paris' },
    metadata: { c: 3 },
    vat_number: VAT,
  });
  t.is(res.status, 200);
  const body = await readJson(res);
  t.is(body.message, 'Sub-tenant updated.');
  t.like(body.data, {
    id: made.id,
    name: 'Renamed',
    email: null,
    siret: SIRET,
    vat_number: VAT,
    external_id: made.external_id,
    address: { line1: null, city: 'Paris', postal_code: null },
    metadata: { c: 3 },
  });
  t.true(body.data.updated_at > made.updated_at);
  const cleared = await readJson(await put(tenant.keys.sk_test, made.id, { address: null, siret: null }));
  t.like(cleared.data, { siret: null, address: { line1: null, city: null, postal_code: null } });
  const renamed = await readJson(await put(tenant.keys.sk_test, made.id, { external_id: made.external_id }));
  t.is(renamed.data.external_id, made.external_id, 'keeping one’s own external_id is no conflict');
});

test('update: 422 on bad or empty input, 409 DUPLICATE_EXTERNAL_ID when taking another’s external_id', async (t) => {
  const a = await seedSubTenant(tenant.keys.sk_test);
  const b = await seedSubTenant(tenant.keys.sk_test);
  await invalid(t, await put(tenant.keys.sk_test, a.id, {}), ['body']);
  await invalid(t, await put(tenant.keys.sk_test, a.id, { siret: '12345678901234' }), ['siret']);
  await invalid(t, await put(tenant.keys.sk_test, a.id, { name: null }), ['name']);
  await invalid(t, await put(tenant.keys.sk_test, a.id, { external_id: null }), ['external_id']);
  await invalid(t, await put(tenant.keys.sk_test, a.id, { status: 'suspended' }), ['status']);
  const dup = await refusal(
    t,
    await put(tenant.keys.sk_test, a.id, { external_id: b.external_id, name: 'Not applied' }),
    409,
    'DUPLICATE_EXTERNAL_ID',
  );
  t.is(dup.existing_id, b.id);
  const row = await app.ownerDb('sub_tenants').where({ id: a.id }).first();
  t.is(row.name, a.name, 'a refused update changes nothing');
  t.is(row.external_id, a.external_id);
  const freed = ext();
  t.is((await put(tenant.keys.sk_test, a.id, { external_id: freed })).status, 200);
  t.is((await readJson(await get(tenant.keys.sk_test, `/by-external-id/${freed}`))).data.id, a.id);
});

test('update and delete: 404 for another tenant’s, the other environment’s, an unknown or a malformed id', async (t) => {
  const theirs = await seedSubTenant(stranger.keys.sk_test);
  const mine = await seedSubTenant(tenant.keys.sk_test);
  for (const [key, id] of [
    [tenant.keys.sk_test, theirs.id],
    [tenant.keys.sk_live, mine.id],
    [tenant.keys.sk_test, randomUUID()],
    [tenant.keys.sk_test, 'nope'],
    [tenant.keys.sk_test, '123'],
  ]) {
    await refusal(t, await put(key, id, { name: 'Hijacked' }), 404, 'NOT_FOUND');
    await refusal(t, await remove(key, id), 404, 'NOT_FOUND');
  }
  const row = await app.ownerDb('sub_tenants').where({ id: theirs.id }).first();
  t.is(row.name, theirs.name);
  t.truthy(await app.ownerDb('sub_tenants').where({ id: mine.id }).first());
});

test('delete: 422 SUB_TENANT_HAS_COMPANIES while live companies exist; deleted companies do not count', async (t) => {
  const made = await seedSubTenant(tenant.keys.sk_test);
  const companyId = await seedCompany(tenant.tenantId, made.id);
  const deletedCompany = await seedCompany(tenant.tenantId, made.id, { deleted: true });
  const body = await refusal(t, await remove(tenant.keys.sk_test, made.id), 422, 'SUB_TENANT_HAS_COMPANIES');
  t.is(body.companies_count, 1);
  t.truthy(await app.ownerDb('sub_tenants').where({ id: made.id }).first());

  await app.ownerDb('companies').where({ id: companyId }).update({ deleted_at: new Date() });
  const res = await remove(tenant.keys.sk_test, made.id);
  t.is(res.status, 200);
  t.falsy(await app.ownerDb('sub_tenants').where({ id: made.id }).first());
  const detached = await app.ownerDb('companies').whereIn('id', [companyId, deletedCompany]);
  t.deepEqual(
    detached.map((c) => c.sub_tenant_id),
    [null, null],
  );
});

test('delete: 422 SUB_TENANT_HAS_FISCAL_ENTRIES once entries exist, and it wins over companies', async (t) => {
  const made = await seedSubTenant(tenant.keys.sk_test);
  await seedFiscalEntries(app.ownerDb, { tenantId: tenant.tenantId, environment: 'sandbox', subTenantId: made.id }, 2);
  const body = await refusal(t, await remove(tenant.keys.sk_test, made.id), 422, 'SUB_TENANT_HAS_FISCAL_ENTRIES');
  t.is(body.fiscal_entries_count, 2);
  await seedCompany(tenant.tenantId, made.id);
  await refusal(t, await remove(tenant.keys.sk_test, made.id), 422, 'SUB_TENANT_HAS_FISCAL_ENTRIES');
  t.truthy(await app.ownerDb('sub_tenants').where({ id: made.id }).first());
});

test('delete: 200 {message}; its API keys are revoked and detached in the same transaction', async (t) => {
  const made = await seedSubTenant(tenant.keys.sk_test);
  const key = await insertApiKey(app.ownerDb, tenant.tenantId, {
    name: 'sub-tenant key',
    kind: 'secret',
    environment: 'sandbox',
    scopes: TENANT_KEY_SCOPES,
    subTenantId: made.id,
  });
  t.is((await get(key.key, `/${made.id}`)).status, 200, 'the key works before');

  const res = await remove(tenant.keys.sk_test, made.id);
  t.is(res.status, 200);
  const body = await readJson(res);
  t.deepEqual(Object.keys(body), ['message']);
  t.regex(body.message, /deleted; 1 API key revoked/);
  const row = await app.ownerDb('api_keys').where({ id: key.id }).first();
  t.like(row, { status: 'revoked', sub_tenant_id: null, revoked_reason: 'sub-tenant deleted' });
  t.truthy(row.revoked_at);
  await refusal(t, await get(key.key, ''), 401, 'API_KEY_REVOKED');
  await refusal(t, await get(tenant.keys.sk_test, `/${made.id}`), 404, 'NOT_FOUND');
  await refusal(t, await remove(tenant.keys.sk_test, made.id), 404, 'NOT_FOUND');
  t.is((await create(tenant.keys.sk_test, { external_id: made.external_id, name: 'Reborn' })).status, 201);
});

test('stats overview: figures counted from the rows of the sub-tenant', async (t) => {
  const made = await seedSubTenant(tenant.keys.sk_test);
  const empty = await readJson(await get(tenant.keys.sk_test, `/${made.id}/stats/overview`));
  t.deepEqual(empty.data, {
    sub_tenant_id: made.id,
    status: 'active',
    onboarding_status: 'pending',
    created_at: made.created_at,
    companies_count: 0,
    invoices_count: 0,
    credit_notes_count: 0,
    fiscal_entries_count: 0,
    last_sequence_number: null,
    last_chain_hash: null,
    last_fiscal_entry_at: null,
    api_keys_count: 0,
    revoked_api_keys_count: 0,
    api_keys_last_used_at: null,
  });

  await seedCompany(tenant.tenantId, made.id);
  await seedCompany(tenant.tenantId, made.id);
  await seedCompany(tenant.tenantId, made.id, { deleted: true });
  const head = await seedFiscalEntries(
    app.ownerDb,
    { tenantId: tenant.tenantId, environment: 'sandbox', subTenantId: made.id },
    3,
  );
  // The tenant's own chain is another chain: not counted for the sub-tenant.
  await seedFiscalEntries(app.ownerDb, { tenantId: tenant.tenantId, environment: 'sandbox' }, 1);
  const key = await insertApiKey(app.ownerDb, tenant.tenantId, {
    name: 'k',
    kind: 'secret',
    environment: 'sandbox',
    scopes: TENANT_KEY_SCOPES,
    subTenantId: made.id,
  });
  await insertApiKey(app.ownerDb, tenant.tenantId, {
    name: 'old',
    kind: 'secret',
    environment: 'sandbox',
    scopes: [],
    subTenantId: made.id,
  }).then(({ id }) => app.ownerDb('api_keys').where({ id }).update({ status: 'revoked', revoked_at: new Date() }));
  t.is((await get(key.key, `/${made.id}`)).status, 200);

  const stats = (await readJson(await get(tenant.keys.sk_test, `/${made.id}/stats/overview`))).data;
  t.like(stats, {
    companies_count: 2,
    fiscal_entries_count: 3,
    last_sequence_number: 3,
    last_chain_hash: head.chain_hash,
    api_keys_count: 1,
    revoked_api_keys_count: 1,
  });
  t.truthy(Date.parse(stats.last_fiscal_entry_at));
  t.truthy(Date.parse(stats.api_keys_last_used_at));

  for (const [k, id] of [
    [stranger.keys.sk_test, made.id],
    [tenant.keys.sk_live, made.id],
    [tenant.keys.sk_test, 'garbage'],
    [tenant.keys.sk_test, randomUUID()],
  ]) {
    await refusal(t, await get(k, `/${id}/stats/overview`), 404, 'NOT_FOUND');
  }
});

test('a key bound to one sub-tenant sees only that sub-tenant and may not create or delete', async (t) => {
  const owner = await seedPlatformTenant(app.ownerDb);
  const own = await seedSubTenant(owner.keys.sk_test);
  const sibling = await seedSubTenant(owner.keys.sk_test);
  const { key } = await insertApiKey(app.ownerDb, owner.tenantId, {
    name: 'bound',
    kind: 'secret',
    environment: 'sandbox',
    scopes: TENANT_KEY_SCOPES,
    subTenantId: own.id,
  });
  const list = await readJson(await get(key));
  t.deepEqual(
    list.data.map((s: { id: string }) => s.id),
    [own.id],
  );
  t.is((await get(key, `/${own.id}`)).status, 200);
  t.is((await put(key, own.id, { name: 'Self-renamed' })).status, 200);
  await refusal(t, await get(key, `/${sibling.id}`), 404, 'NOT_FOUND');
  await refusal(t, await get(key, `/by-external-id/${sibling.external_id}`), 404, 'NOT_FOUND');
  await refusal(t, await put(key, sibling.id, { name: 'x' }), 404, 'NOT_FOUND');
  await refusal(t, await create(key, { external_id: ext(), name: 'x' }), 403, 'FORBIDDEN');
  await refusal(t, await remove(key, own.id), 403, 'FORBIDDEN');
  await refusal(t, await remove(key, sibling.id), 403, 'FORBIDDEN');
  t.truthy(await app.ownerDb('sub_tenants').where({ id: sibling.id }).first());
});

test('credentials: no key 401 API_KEY_MISSING; a user key 403 FORBIDDEN; a publishable key is refused', async (t) => {
  await refusal(t, await app.request(BASE), 401, 'API_KEY_MISSING');
  const userKey = await seedUserKey(app.ownerDb, await seedUser(app.ownerDb));
  await refusal(t, await get(userKey), 403, 'FORBIDDEN');
  await refusal(t, await create(userKey, { external_id: ext(), name: 'x' }), 403, 'FORBIDDEN');
  await refusal(
    t,
    await app.request(BASE, { headers: { 'X-Publishable-Key': tenant.keys.pk_test } }),
    401,
    'UNAUTHENTICATED',
  );
});

test('Idempotency-Key: a retried create replays the first answer and makes one sub-tenant', async (t) => {
  const externalId = ext();
  const headers = { 'X-Tenant-Key': tenant.keys.sk_test, 'Idempotency-Key': randomUUID() };
  const first = await app.request(BASE, postJson({ external_id: externalId, name: 'Once' }, headers));
  const again = await app.request(BASE, postJson({ external_id: externalId, name: 'Once' }, headers));
  t.is(first.status, 201);
  t.is(again.status, 201);
  t.is(again.headers.get('Idempotent-Replayed'), 'true');
  t.deepEqual(await readJson(again), await readJson(first));
  t.is((await app.ownerDb('sub_tenants').where({ external_id: externalId })).length, 1);
});
