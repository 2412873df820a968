import { randomUUID } from 'node:crypto';
import test from 'ava';
import type { RouteSpec } from '../../api/http/route-spec.js';
import { ROUTES } from '../../api/routes/index.js';
import { openApiRoutes } from '../../api/routes/openapi.routes.js';
import { issueAccessToken } from '../../domain/auth/access-token-store.js';
import { TENANT_KEY_SCOPES } from '../../domain/tenants/api-key.js';
import { insertApiKey } from '../../domain/tenants/api-key-store.js';
import { insertKybDocument } from '../../domain/tenants/kyb-store.js';
import { createCreditNote } from '../helpers/credit-notes.js';
import { seedPlatformTenant, seedUser, seedUserKey, seedVerifiedCompany } from '../helpers/identities.js';
import { createInvoice, setDocumentsStatus, storeDocument } from '../helpers/invoices.js';
import { minimalPdf } from '../helpers/minimal-pdf.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { type Actor, CONSUMES_CREDENTIALS, EXPECTED, type Fixture, OWNED } from './authorization-matrix.js';

/**
 * Every actor against every route: the expected status comes from the table in
 * authorization-matrix.ts, one row per route, so a route added without a row fails here. Ids in
 * paths are fresh UUIDs (nobody's), bodies are empty: an actor that gets through authentication
 * and authorization then sees 404 or 422, one that does not sees 401 or 403 first.
 */
let app: TestApp;
type Credentials = Record<Actor, Record<string, string>>;
let shared: Credentials;
let owned: Record<Fixture, Record<string, string>>;

const CSRF = 'matrix-csrf-token';

test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
  ({ credentials: shared, owned } = await seedActors());
});
test.after.always(() => app?.close());

/** One credential per actor, each of its own user or tenant. */
async function seedActors(): Promise<{ credentials: Credentials; owned: Record<Fixture, Record<string, string>> }> {
  const db = app.ownerDb;
  const user = await seedUser(db);
  const admin = await seedUser(db, { admin: true });
  const session = await issueAccessToken(db, {
    tenantId: user.tenantId,
    userId: user.userId,
    kind: 'session',
    now: new Date(),
  });
  const tenant = await seedPlatformTenant(db, { kyb: 'verified' });
  const other = await seedPlatformTenant(db, { kyb: 'verified' });
  const key = (options: Parameters<typeof seedUserKey>[2]) => seedUserKey(db, user, options);
  const tenantKey = async (scopes: readonly string[], subTenantId: string | null = null) =>
    (
      await insertApiKey(db, tenant.tenantId, {
        name: 'matrix',
        kind: 'secret',
        environment: 'sandbox',
        scopes,
        subTenantId,
      })
    ).key;
  const userKey = await key({});
  const [subTenant] = await db('sub_tenants')
    .insert({ tenant_id: tenant.tenantId, environment: 'sandbox', name: 'Owned', external_id: `ext-${randomUUID()}` })
    .returning(['id', 'external_id']);
  const companyId = await seedVerifiedCompany(db, user.tenantId);
  const invoice = await createInvoice(app.request, tenant.keys.sk_test, {}, '/api/v1/sandbox/invoices');
  for (const kind of ['pdf', 'facturx', 'cii'] as const) await storeDocument(db, invoice, tenant.tenantId, kind);
  await setDocumentsStatus(db, invoice.id, 'ready');
  const creditNote = await createCreditNote(app.request, tenant.keys.sk_test, invoice);
  const webhook = await app.request('/api/v1/webhooks', {
    method: 'POST',
    headers: { Authorization: `Bearer ${user.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ url: 'https://hooks.example.com/matrix', events: ['*'], environment: 'sandbox' }),
  });
  const webhookId = ((await webhook.json()) as { data: { id: string } }).data.id;
  const pdf = minimalPdf();
  const kybDocument = await insertKybDocument(db, app.deps.config.appKey as Buffer, {
    id: randomUUID(),
    tenantId: tenant.tenantId,
    type: 'kbis',
    file: { filename: 'kbis.pdf', contentType: 'application/pdf', content: pdf, sha256: 'a'.repeat(64) },
    now: new Date(),
  });
  const keyRow = await db('api_keys')
    .where({ key_prefix: userKey.slice(0, 12), user_id: user.userId })
    .first('id');
  const credentials: Credentials = {
    anonymous: {},
    user_token: { Authorization: `Bearer ${user.token}` },
    user_session: { Cookie: `einvoice_session=${session.token}; XSRF-TOKEN=${CSRF}`, 'X-XSRF-TOKEN': CSRF },
    admin_token: { Authorization: `Bearer ${admin.token}` },
    user_key: { 'X-API-Key': userKey },
    user_key_invoices: { 'X-API-Key': await key({ scopes: ['invoices'] }) },
    user_key_signatures: { 'X-API-Key': await key({ scopes: ['signatures'] }) },
    user_key_no_scope: { 'X-API-Key': await key({ scopes: [] }) },
    revoked_key: { 'X-API-Key': await key({ revoked: true }) },
    expired_key: { 'X-API-Key': await key({ expiresAt: new Date(Date.now() - 60_000) }) },
    tenant_sandbox: { 'X-Tenant-Key': tenant.keys.sk_test },
    tenant_production: { 'X-Tenant-Key': tenant.keys.sk_live },
    other_tenant: { 'X-Tenant-Key': other.keys.sk_test },
    tenant_fiscal_reader: { 'X-Tenant-Key': await tenantKey(['fiscal:read']) },
    tenant_sub_tenant: { 'X-Tenant-Key': await tenantKey(TENANT_KEY_SCOPES, subTenant.id) },
    publishable_key: { 'X-Publishable-Key': tenant.keys.pk_test },
  };
  return {
    credentials,
    owned: {
      sub_tenant: { id: subTenant.id, subTenantId: subTenant.id, externalId: subTenant.external_id },
      company: { id: companyId },
      user_key: { id: keyRow.id },
      invoice: { id: invoice.id, invoice: invoice.id, type: 'pdf' },
      credit_note: { id: creditNote.id },
      webhook: { id: webhookId },
      kyb_document: { document: kybDocument.id },
    },
  };
}

const routeId = (route: Pick<RouteSpec, 'method' | 'path'>) => `${route.method.toUpperCase()} ${route.path}`;

/** The routes the service serves, as app.ts registers them: the route tables plus the OpenAPI document. */
const served = [...ROUTES, ...openApiRoutes(() => ROUTES)].map(routeId);

test('every route has a row, and every row a route', (t) => {
  t.deepEqual(
    served.filter((id) => !EXPECTED[id]),
    [],
    'routes without a row in test/contract/authorization-matrix.ts',
  );
  t.deepEqual(
    Object.keys(EXPECTED).filter((id) => !served.includes(id)),
    [],
    'rows for routes that do not exist',
  );
});

const fill = (path: string, ids: Record<string, string> = {}) =>
  path.replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? (name === 'year' ? '2026' : randomUUID()));

for (const id of served) {
  test(`${id}: each actor gets its expected status`, async (t) => {
    const expected = EXPECTED[id];
    if (!expected) return t.fail(`no row for ${id}`);
    const [method, path] = id.split(' ');
    const hasBody = ['POST', 'PUT', 'PATCH'].includes(method);
    const credentials = CONSUMES_CREDENTIALS.has(id) ? (await seedActors()).credentials : shared;
    const got = {} as Record<Actor, number>;
    for (const actor of Object.keys(expected) as Actor[]) {
      const res = await app.request(fill(path), {
        method,
        headers: { ...credentials[actor], ...(hasBody ? { 'Content-Type': 'application/json' } : {}) },
        body: hasBody ? '{}' : undefined,
      });
      await res.arrayBuffer();
      got[actor] = res.status;
    }
    t.deepEqual(got, expected);
  });
}

for (const [id, { fixture, expected }] of Object.entries(OWNED)) {
  test(`${id} with an id the owner holds: only the owner is served`, async (t) => {
    t.true(served.includes(id), `${id} is a served route`);
    const [method, path] = id.split(' ');
    const got = {} as Record<Actor, number>;
    for (const actor of Object.keys(expected) as Actor[]) {
      const res = await app.request(fill(path, owned[fixture]), { method, headers: shared[actor] });
      await res.arrayBuffer();
      got[actor] = res.status;
    }
    t.deepEqual(got, expected);
  });
}
