import test, { type ExecutionContext } from 'ava';
import { postJson, readJson } from '../helpers/http.js';
import { type SeededTenant, seedPlatformTenant } from '../helpers/identities.js';
import { invoiceBody } from '../helpers/invoice-bodies.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let tenant: SeededTenant;

test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
  tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
});
test.after.always(() => app?.close());

const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const XML = Buffer.from(
  '<?xml version="1.0" encoding="UTF-8"?>\n<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>\n',
);

/** The creation body as multipart/form-data fields in bracket notation (`lines[0][quantity]`). */
function formOf(body: Record<string, unknown>, file?: { name: string; type: string; content: Buffer }): FormData {
  const form = new FormData();
  const add = (prefix: string, value: unknown) => {
    if (value === undefined) return;
    if (typeof value === 'object' && value !== null) {
      for (const [key, inner] of Object.entries(value)) add(prefix ? `${prefix}[${key}]` : key, inner);
    } else form.append(prefix, String(value));
  };
  add('', body);
  if (file) form.append('original_file', new Blob([file.content], { type: file.type }), file.name);
  return form;
}

const upload = (form: FormData, key = tenant.keys.sk_test) =>
  app.request('/api/v1/invoices', { method: 'POST', headers: { 'X-API-Key': key }, body: form });

async function storedOriginal(invoiceId: string) {
  return app.ownerDb('invoice_documents').where({ invoice_id: invoiceId, kind: 'original' }).first();
}

async function refusedFile(t: ExecutionContext, res: Response, pattern: RegExp) {
  const body = await readJson(res);
  t.is(res.status, 422, JSON.stringify(body));
  t.regex(body.errors.original_file[0], pattern);
}

test('multipart: the fields in bracket notation and a PDF original, typed by its content', async (t) => {
  const res = await upload(
    formOf(invoiceBody(), { name: 'facture.bin', type: 'application/octet-stream', content: PDF }),
  );
  const body = await readJson(res);
  t.is(res.status, 201, JSON.stringify(body));
  t.like(body.data, { total_ttc: 1475, buyer_is_individual: false });
  t.is(body.data.lines[1].quantity, 2);
  const original = await storedOriginal(body.data.id);
  t.is(original.content_type, 'application/pdf');
  t.is(original.filename, 'facture.bin');
  t.deepEqual(original.content, PDF);
});

test('multipart with the JSON body in a `payload` field, and an XML original', async (t) => {
  const form = new FormData();
  form.append('payload', JSON.stringify(invoiceBody()));
  form.append('original_file', new Blob([XML], { type: 'text/plain' }), 'invoice.txt');
  const res = await upload(form);
  const body = await readJson(res);
  t.is(res.status, 201, JSON.stringify(body));
  t.is((await storedOriginal(body.data.id)).content_type, 'application/xml');
});

test('JSON with the original in base64', async (t) => {
  const res = await app.request(
    '/api/v1/invoices',
    postJson(invoiceBody({ original_file: { filename: 'f.pdf', content: PDF.toString('base64') } }), {
      'X-API-Key': tenant.keys.sk_test,
    }),
  );
  const body = await readJson(res);
  t.is(res.status, 201, JSON.stringify(body));
  t.deepEqual((await storedOriginal(body.data.id)).content, PDF);
});

test('a file that is neither PDF nor XML, one with a DOCTYPE, or one over 10 MB is refused and nothing is written', async (t) => {
  const own = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const send = (file: { name: string; type: string; content: Buffer }) =>
    upload(formOf(invoiceBody(), file), own.keys.sk_test);
  const png = Buffer.from(
    '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000200d5a0a6c40000000049454e44ae426082',
    'hex',
  );
  await refusedFile(t, await send({ name: 'fake.pdf', type: 'application/pdf', content: png }), /PDF or an XML/);
  const doctype = Buffer.from('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>');
  await refusedFile(t, await send({ name: 'x.xml', type: 'application/xml', content: doctype }), /DOCTYPE/);
  const big = Buffer.concat([PDF, Buffer.alloc(10 * 1024 * 1024)]);
  await refusedFile(t, await send({ name: 'big.pdf', type: 'application/pdf', content: big }), /10 MB/);
  t.is((await app.ownerDb('invoices').where({ tenant_id: own.tenantId })).length, 0);
  t.is((await app.ownerDb('fiscal_entries').where({ tenant_id: own.tenantId })).length, 0);
});

test('multipart is refused on routes that take no file', async (t) => {
  const form = new FormData();
  form.append('name', 'x');
  const res = await app.request('/api/v1/tenant/sub-tenants', {
    method: 'POST',
    headers: { 'X-Tenant-Key': tenant.keys.sk_test },
    body: form,
  });
  t.is(res.status, 415);
});
