import test from 'ava';
import { routePattern } from '../../api/middleware/body.js';
import { ROUTES } from '../../api/routes/index.js';
import { SCHEMAS } from '../../domain/container.js';
import { testRoutes, testSchemaRegistry } from '../fixtures/test-routes.js';
import { postJson, readJson } from '../helpers/http.js';
import { seedPlatformTenant } from '../helpers/identities.js';
import { seedTenant } from '../helpers/seed.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let tenantId: string;

test.before(async () => {
  app = await startTestApp({
    env: { RATE_LIMIT_SCALE: '0' },
    override: (c) => c.register(SCHEMAS, { useValue: testSchemaRegistry() }),
    routes: () => [...ROUTES, ...testRoutes],
  });
  tenantId = (await seedTenant(app.ownerDb)).id;
});
test.after.always(() => app?.close());

test('a huge page is a 422 naming page, not a database error', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const headers = { 'X-API-Key': tenant.keys.sk_test };
  for (const page of ['1e15', '1000000000000000', '99999999999999999999']) {
    const res = await app.request(`/api/v1/invoices?page=${page}`, { headers });
    const body = await readJson(res);
    t.is(res.status, 422, `${page}: ${JSON.stringify(body)}`);
    t.deepEqual(Object.keys(body.errors ?? {}), ['page'], page);
  }
  const deepest = await app.request('/api/v1/invoices?page=10000000&per_page=100', { headers });
  t.is(deepest.status, 200, 'the deepest allowed page is an empty page');
  t.deepEqual((await readJson(deepest)).data, []);
  t.is((await app.request('/api/v1/invoices?page=10000001&per_page=100', { headers })).status, 422);
});

test('a path spelled in upper case, or with a trailing slash, gets the same body limit as the route', async (t) => {
  // /api/test/orders takes at most 2 kB; the default limit is 1 MB
  const lines = Array.from({ length: 100 }, (_, i) => ({ description: `line ${i} ${'x'.repeat(20)}`, quantity: 1 }));
  const big = { tenant_id: tenantId, customer_email: 'buyer@example.com', lines };
  for (const path of ['/api/test/orders', '/API/TEST/ORDERS', '/Api/Test/Orders/']) {
    const res = await app.request(path, postJson(big));
    t.is(res.status, 413, path);
    t.is((await readJson(res)).code, 'PAYLOAD_TOO_LARGE', path);
  }
  const small = { tenant_id: tenantId, customer_email: 'buyer@example.com', lines: lines.slice(0, 1) };
  t.is((await app.request('/API/TEST/ORDERS', postJson(small))).status, 201, 'the router serves it');
});

test('route patterns match as the router does: any case, one optional trailing slash, literal dots', (t) => {
  const pattern = routePattern('/api/v1/invoices/{id}/download/{type}');
  t.true(pattern.test('/api/v1/invoices/abc/download/pdf'));
  t.true(pattern.test('/API/V1/INVOICES/abc/DOWNLOAD/pdf/'));
  t.false(pattern.test('/api/v1/invoices/abc/download/pdf/extra'));
  t.false(pattern.test('/api/v1/invoices/abc/download'));
  t.false(routePattern('/api/v1/openapi.json').test('/api/v1/openapiXjson'));
});
