import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import test from 'ava';
import { createEinvoiceClient, type paths } from '../../examples/client/client.js';
import { CLIENT_SCHEMA_PATH, renderClientSchema } from '../../scripts/client-schema.js';
import { seedPlatformTenant } from '../helpers/identities.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The typed client of examples/client (openapi-typescript + openapi-fetch): its committed types are
 * what the OpenAPI document gives today, and the README's "First calls" run through it. tsc compiles
 * this file against those types, so a contract change that breaks a client breaks the build.
 */
let app: TestApp;

test.before(async () => {
  app = await startTestApp();
});

test.after.always(async () => {
  await app?.close();
});

test('examples/client/schema.d.ts is what `npm run client:generate` writes from the current document', async (t) => {
  const committed = await readFile(new URL(`../../../${CLIENT_SCHEMA_PATH}`, import.meta.url), 'utf8');
  t.true(committed === (await renderClientSchema()), 'the client types drifted: run `npm run client:generate`');
});

test('the served OpenAPI document is the one the client was generated from', async (t) => {
  const client = createEinvoiceClient(app.url, '');
  const { data, response } = await client.GET('/api/v1/openapi.json');
  t.is(response.status, 200);
  const served = data as { paths: Record<string, unknown> };
  const typed: (keyof paths)[] = ['/api/v1/sandbox/invoices', '/api/v1/credit-notes', '/api/v1/openapi.json'];
  for (const path of typed) t.truthy(served.paths[path], path);
});

type InvoiceBody = paths['/api/v1/sandbox/invoices']['post']['requestBody']['content']['application/json'];

test('README "First calls" through the typed client: sandbox invoice, its Factur-X link, a goodwill credit note', async (t) => {
  // `npx einvoice tenant create … --kyb verified` as a seed helper: the tenant and its four keys
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const client = createEinvoiceClient(app.url, tenant.keys.sk_test);
  const example = JSON.parse(await readFile(new URL('../../../examples/invoice.json', import.meta.url), 'utf8'));
  const body: InvoiceBody = { ...example, invoice_number: `FC-${randomUUID().slice(0, 8)}` };

  const created = await client.POST('/api/v1/sandbox/invoices', { body });
  t.is(created.response.status, 201, JSON.stringify(created.error));
  const invoice = created.data!.data;
  t.is(invoice.status, 'draft');
  t.is(invoice.invoice_number, body.invoice_number);

  const link = await client.GET('/api/v1/sandbox/invoices/{id}/download/{type}', {
    params: { path: { id: invoice.id, type: 'facturx' } },
  });
  t.is(link.response.status, 200, JSON.stringify(link.error));
  t.true(Date.parse(link.data!.expires_at) > Date.now());
  // the link is on PUBLIC_BASE_URL; the test app listens elsewhere
  const { pathname, search } = new URL(link.data!.url);
  const file = await app.request(`${pathname}${search}`);
  t.is(file.status, 200);
  t.is(
    Buffer.from(await file.arrayBuffer())
      .subarray(0, 5)
      .toString('latin1'),
    '%PDF-',
  );

  const credit = await client.POST('/api/v1/credit-notes', {
    body: {
      invoice_id: invoice.id,
      reason: 'Geste commercial',
      items: [{ description: 'Geste commercial', quantity: 1, unit_price: 10, tax_rate: 20 }],
    },
  });
  t.is(credit.response.status, 201, JSON.stringify(credit.error));
  t.is(credit.data!.data.invoice_id, invoice.id);

  // a refusal is typed too: the spec's error shape
  const refused = await client.POST('/api/v1/sandbox/invoices', { body: { ...body } });
  t.is(refused.response.status, 409);
  const refusal = refused.error;
  t.is(refusal && 'code' in refusal ? refusal.code : undefined, 'DUPLICATE_INVOICE_NUMBER');
});
