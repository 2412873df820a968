import { createHash } from 'node:crypto';
import test from 'ava';
import type { GeneratedDocuments } from '../../domain/invoicing/generated-documents.js';
import { generateInvoiceDocumentsJob } from '../../workers/handlers/generate-invoice-documents.js';
import { readJson } from '../helpers/http.js';
import { type SeededTenant, seedPlatformTenant } from '../helpers/identities.js';
import { createInvoice } from '../helpers/invoices.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Stored files: an XML is compressed by PostgreSQL (lz4, when the server has it), a PDF hardly
 * (deflated inside already), and a download serves the very bytes that were rendered either way.
 */
let app: TestApp;
let tenant: SeededTenant;

test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
  tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
});
test.after.always(() => app?.close());

const get = (pathname: string) => app.request(pathname, { headers: { 'X-API-Key': tenant.keys.sk_test } });

async function download(pathname: string): Promise<Buffer> {
  const link = await readJson(await get(pathname));
  const file = await app.request(new URL(link.url).pathname);
  if (file.status !== 200) throw new Error(`${pathname}: ${file.status}`);
  return Buffer.from(await file.arrayBuffer());
}

test('a CII is stored compressed, its PDF about as it is; both download byte for byte', async (t) => {
  const { rows } = await app.ownerDb.raw(
    `select 'lz4' = any(enumvals) as lz4 from pg_settings where name = 'default_toast_compression'`,
  );
  const lz4 = rows[0].lz4 === true;
  const invoice = await createInvoice(app.request, tenant.keys.sk_test, {
    output_format: 'cii',
    // enough lines for an XML well past the size PostgreSQL compresses from (2 KB)
    lines: Array.from({ length: 20 }, (_, i) => ({
      description: `Prestation ${i + 1}`,
      quantity: 1,
      unit_price: 100,
      tax_rate: 20,
      total_ht: 100,
      total_tax: 20,
      total_ttc: 120,
    })),
    total_ht: 2000,
    total_tax: 400,
    total_ttc: 2400,
  });
  const generated = (await generateInvoiceDocumentsJob(
    { tenantId: tenant.tenantId, invoiceId: invoice.id },
    app.deps,
  )) as GeneratedDocuments;
  t.is(generated.documents_status, 'ready');

  const stored = await app
    .ownerDb('invoice_documents')
    .where({ invoice_id: invoice.id })
    .select(
      'kind',
      'byte_size',
      'sha256',
      app.ownerDb.raw('pg_column_size(content) as stored_size'),
      app.ownerDb.raw('pg_column_compression(content) as method'),
    );
  const cii = stored.find((row) => row.kind === 'cii');
  const pdf = stored.find((row) => row.kind === 'pdf');
  t.truthy(cii && pdf);
  if (lz4) {
    t.is(cii.method, 'lz4');
    t.true(cii.stored_size * 3 < cii.byte_size, `the CII takes ${cii.stored_size} of its ${cii.byte_size} bytes`);
  } else {
    t.is(cii.method, null, 'without lz4 the columns stay uncompressed');
  }
  // A PDF is deflated inside: lz4 finds little left (its XMP, its dictionaries), whichever it keeps.
  t.true(pdf.stored_size * 10 > pdf.byte_size * 8, `the PDF takes ${pdf.stored_size} of its ${pdf.byte_size} bytes`);
  t.log(`CII ${cii.byte_size} → ${cii.stored_size} bytes, PDF ${pdf.byte_size} → ${pdf.stored_size}`);

  for (const [type, row] of [
    ['converted', cii],
    ['pdf', pdf],
  ] as const) {
    const bytes = await download(`/api/v1/invoices/${invoice.id}/download/${type}`);
    t.is(bytes.length, row.byte_size, type);
    t.is(createHash('sha256').update(bytes).digest('hex'), row.sha256, type);
  }
});
