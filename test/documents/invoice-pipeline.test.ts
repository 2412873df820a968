import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import { frenchVatNumber } from '../../domain/invoicing/invoice.js';
import type { GeneratedDocuments } from '../../domain/invoicing/operations/generate-invoice-documents.js';
import { generateInvoiceDocumentsJob } from '../../workers/handlers/generate-invoice-documents.js';
import { validateAll } from '../helpers/einvoice-validator.js';
import { postJson, readJson } from '../helpers/http.js';
import { type SeededTenant, seedPlatformTenant } from '../helpers/identities.js';
import { BUYER_SIRET, invoiceBody } from '../helpers/invoice-bodies.js';
import { buyerParty } from '../helpers/invoice-xml.js';
import { pdfText } from '../helpers/pdf-tools.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The whole chain for a corpus of varied invoices: created through the API (the tenant route, so
 * the service computes the totals), rendered by the document worker's operation in each of the
 * three formats, stored, and every stored e-invoice checked by the official validator in one run.
 */
let app: TestApp;
let tenant: SeededTenant;
let dir: string;

test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
  tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  dir = await mkdtemp(path.join(tmpdir(), 'invoice-pipeline-'));
});
test.after.always(async () => {
  await app?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

type Line = {
  description: string;
  quantity: number;
  unit_price: number;
  tax_rate: number;
  vat_category?: string;
  vat_exemption_reason?: string;
};
const line = (
  description: string,
  quantity: number,
  unit_price: number,
  tax_rate: number,
  extra: Partial<Line> = {},
): Line => ({
  description,
  quantity,
  unit_price,
  tax_rate,
  ...extra,
});
const address = (city: string, country: string) => ({ line1: '1 Main Street', postal_code: '10115', city, country });
const LONG = `Maintenance « premium » & support <24/7> "sur site" — l'équipe d'astreinte intervient à Saint-Étienne, Łódź et Zürich 🚀. ${'Détail de la prestation. '.repeat(45)}`;

/** At least 12 varied invoices, as tenant creation bodies without totals. */
const CORPUS: { name: string; body: Record<string, unknown> }[] = [
  {
    name: 'four French rates',
    body: {
      lines: [
        line('Conseil', 3, 400, 20),
        line('Restauration', 2, 35.5, 10),
        line('Livres', 4, 12.9, 5.5),
        line('Presse', 10, 1.9, 2.1),
      ],
    },
  },
  { name: 'zero rated Z', body: { lines: [line('Bien taxé à zéro', 2, 150, 0, { vat_category: 'Z' })] } },
  { name: 'exempt E, default reason', body: { lines: [line('Formation professionnelle', 1, 1200, 0)] } },
  {
    name: 'reverse charge AE',
    body: {
      buyer_vat_number: 'FR83443061841',
      lines: [line('Travaux de sous-traitance', 5, 640, 0, { vat_category: 'AE' })],
    },
  },
  {
    name: 'intra-community K, German buyer',
    body: {
      buyer_siret: undefined,
      buyer_name: 'Käufer GmbH',
      buyer_country: 'DE',
      buyer_vat_number: 'DE123456789',
      buyer_address: address('Berlin', 'DE'),
      lines: [line('Machine-outil', 1, 18500, 0, { vat_category: 'K' })],
    },
  },
  {
    name: 'export G, US buyer in USD',
    body: {
      currency: 'USD',
      buyer_siret: undefined,
      buyer_name: 'Buyer Inc.',
      buyer_country: 'US',
      buyer_address: { line1: '350 Fifth Avenue', postal_code: '10118', city: 'New York', country: 'US' },
      lines: [line('Software licence', 12, 99.99, 0, { vat_category: 'G' })],
    },
  },
  {
    name: 'Swiss buyer in CHF',
    body: {
      currency: 'CHF',
      buyer_siret: undefined,
      buyer_name: 'Käufer AG',
      buyer_country: 'CH',
      buyer_address: address('Zürich', 'CH'),
      lines: [
        line('Beratung', 8, 180, 0, { vat_category: 'G', vat_exemption_reason: 'Exportation de services hors UE' }),
      ],
    },
  },
  { name: 'not subject O', body: { lines: [line('Débours refacturés', 1, 85.4, 0, { vat_category: 'O' })] } },
  {
    name: 'Italian business buyer, standard rate',
    body: {
      buyer_siret: undefined,
      buyer_name: 'Acquirente S.r.l.',
      buyer_country: 'IT',
      buyer_vat_number: 'IT12345678901',
      buyer_address: address('Milano', 'IT'),
      lines: [line('Consulenza', 10, 95, 20)],
    },
  },
  {
    name: 'individual buyer',
    body: {
      buyer_siret: undefined,
      buyer_is_individual: true,
      buyer_name: 'Jeanne Martin',
      lines: [line('Cours particulier', 4, 45, 20)],
    },
  },
  {
    name: 'sixty lines',
    body: {
      lines: Array.from({ length: 60 }, (_, i) => line(`Article ${i + 1}`, (i % 7) + 1, 3.75 + i, i % 2 ? 20 : 10)),
    },
  },
  { name: 'long texts', body: { seller_name: 'Vendeur & Fils <SAS> "Élite"', lines: [line(LONG, 1, 2500, 20)] } },
  { name: 'no due date', body: { due_date: undefined, lines: [line('Prestation', 1, 320, 20)] } },
  {
    name: 'four-decimal prices',
    body: { lines: [line('Électricité (kWh)', 1234.567, 0.1789, 20), line('Abonnement', 1, 12.3456, 5.5)] },
  },
];

const FORMATS = ['facturx', 'ubl', 'cii'] as const;

/** A corpus entry as a tenant body without totals: the service computes and checks them. */
function bodyOf(entry: (typeof CORPUS)[number], format: string) {
  const { total_ht, total_tax, total_ttc, lines, ...base } = invoiceBody({ output_format: format });
  const body: Record<string, unknown> = { ...base, ...entry.body };
  for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
  return body;
}

async function createAndRender(entry: (typeof CORPUS)[number], format: string) {
  const res = await app.request(
    '/api/v1/tenant/invoices',
    postJson(bodyOf(entry, format), { 'X-Tenant-Key': tenant.keys.sk_test }),
  );
  const body = await readJson(res);
  if (res.status !== 201) throw new Error(`${entry.name} (${format}): ${res.status} ${JSON.stringify(body)}`);
  const generated = (await generateInvoiceDocumentsJob(
    { tenantId: tenant.tenantId, invoiceId: body.data.id },
    app.deps,
  )) as GeneratedDocuments;
  if (generated.documents_status !== 'ready')
    throw new Error(`${entry.name} (${format}): ${JSON.stringify(generated)}`);
  const files = await app.ownerDb('invoice_documents').where({ invoice_id: body.data.id }).select('kind', 'content');
  return { invoice: body.data, files: files as { kind: string; content: Buffer }[] };
}

test('every invoice of the corpus, in each format, passes the official EN 16931 and Factur-X rules', async (t) => {
  t.timeout(10 * 60_000);
  t.true(CORPUS.length >= 12);
  const written: { file: string; label: string }[] = [];
  for (const entry of CORPUS) {
    for (const format of FORMATS) {
      const { files } = await createAndRender(entry, format);
      const kinds = files.map((f) => f.kind).sort();
      t.deepEqual(
        kinds,
        format === 'facturx' ? ['cii', 'facturx'] : [format, 'pdf'].sort(),
        `${entry.name} (${format})`,
      );
      for (const f of files.filter((f) => f.kind !== 'pdf')) {
        const file = path.join(dir, `${written.length}-${f.kind}.${f.kind === 'facturx' ? 'pdf' : 'xml'}`);
        await writeFile(file, f.content);
        written.push({ file, label: `${entry.name} (${format}, ${f.kind})` });
      }
    }
  }
  const report = validateAll(written.map((w) => w.file));
  for (const w of written) {
    const result = report.files.find((f) => f.file === w.file);
    const errors = result?.errors.map((e) => `  [${e.rule}] ${e.message}`).join('\n');
    t.true(result?.valid === true && result.errors.length === 0, `${w.label}\n${errors ?? 'no report'}`);
  }
  t.is(written.length, CORPUS.length * 4);
});

test("VAT an ERP spread over the lines (each 0.01 from its own rounding): the documents state the rate's VAT and pass", async (t) => {
  t.timeout(5 * 60_000);
  // Three lines of 10.05 at 5.5 %: 0.55 each on its own, 1.66 for the rate, spread as 0.56, 0.56, 0.54.
  const lines = [0.56, 0.56, 0.54].map((tax, i) => ({
    description: `Article ${i + 1}`,
    quantity: 1,
    unit_price: 10.05,
    tax_rate: 5.5,
    total_ht: 10.05,
    total_tax: tax,
    total_ttc: Number((10.05 + tax).toFixed(2)),
  }));
  const written: { file: string; label: string }[] = [];
  for (const format of FORMATS) {
    const body = invoiceBody({ output_format: format, lines, total_ht: 30.15, total_tax: 1.66, total_ttc: 31.81 });
    const res = await app.request('/api/v1/invoices', postJson(body, { 'X-API-Key': tenant.keys.sk_test }));
    const created = await readJson(res);
    t.is(res.status, 201, JSON.stringify(created));
    const generated = (await generateInvoiceDocumentsJob(
      { tenantId: tenant.tenantId, invoiceId: created.data.id },
      app.deps,
    )) as GeneratedDocuments;
    t.is(generated.documents_status, 'ready');
    const files = await app
      .ownerDb('invoice_documents')
      .where({ invoice_id: created.data.id })
      .select('kind', 'content');
    for (const f of files.filter((f: { kind: string }) => f.kind !== 'pdf')) {
      const xml = f.content.toString('latin1');
      if (f.kind === 'cii') t.true(xml.includes('<ram:CalculatedAmount>1.66</ram:CalculatedAmount>'), 'BT-117');
      if (f.kind === 'ubl') t.regex(xml, /<cac:TaxSubtotal>.*<cbc:TaxAmount currencyID="EUR">1\.66</s, 'BT-117');
      const file = path.join(dir, `spread-${written.length}-${f.kind}.${f.kind === 'facturx' ? 'pdf' : 'xml'}`);
      await writeFile(file, f.content);
      written.push({ file, label: `${format} (${f.kind})` });
    }
  }
  const report = validateAll(written.map((w) => w.file));
  for (const w of written) {
    const result = report.files.find((f) => f.file === w.file);
    const errors = result?.errors.map((e) => `  [${e.rule}] ${e.message}`).join('\n');
    t.true(result?.valid === true && result.errors.length === 0, `${w.label}\n${errors ?? 'no report'}`);
  }
  t.is(written.length, 4);
});

test('an individual buyer: no BT-46/47/48 in CII or UBL, no B2B payment mentions in the PDF; a business buyer has them', async (t) => {
  const individual = CORPUS.find((e) => e.name === 'individual buyer')!;
  const french = CORPUS.find((e) => e.name === 'four French rates')!;
  const business = { ...french, body: { ...french.body, buyer_vat_number: frenchVatNumber(BUYER_SIRET) } };
  for (const [entry, isIndividual] of [
    [individual, true],
    [business, false],
  ] as const) {
    const ubl = await createAndRender(entry, 'ubl');
    const cii = await createAndRender(entry, 'cii');
    for (const [xml, syntax] of [
      [ubl.files.find((f) => f.kind === 'ubl')!.content, 'ubl'],
      [cii.files.find((f) => f.kind === 'cii')!.content, 'en16931'],
    ] as const) {
      const buyer = buyerParty(xml, syntax);
      t.truthy(buyer.name, `${entry.name} ${syntax}: name kept`);
      t.truthy(buyer.city, `${entry.name} ${syntax}: address kept`);
      if (isIndividual) {
        t.deepEqual([buyer.identifier, buyer.legalId, buyer.vatId], [null, null, null], `${entry.name} ${syntax}`);
      } else {
        t.truthy(buyer.legalId, `${entry.name} ${syntax}: BT-47`);
        t.truthy(buyer.vatId, `${entry.name} ${syntax}: BT-48`);
      }
    }
    const pdfFile = path.join(dir, `${entry.name.replace(/\W+/g, '-')}.pdf`);
    await writeFile(pdfFile, ubl.files.find((f) => f.kind === 'pdf')!.content);
    const text = pdfText(pdfFile).replace(/\s+/g, ' ');
    t.is(/pénalités de retard/i.test(text), !isIndividual, `${entry.name}: late-payment penalties`);
    t.is(/40 euros/.test(text), !isIndividual, `${entry.name}: 40 EUR recovery indemnity`);
  }
});

test('convert: a UBL invoice gets its Factur-X from the same data, downloadable through the returned link', async (t) => {
  const { invoice } = await createAndRender(CORPUS[0], 'ubl');
  const res = await app.request(
    '/api/v1/invoices/convert',
    postJson({ invoice_id: invoice.id, target_format: 'facturx' }, { 'X-API-Key': tenant.keys.sk_test }),
  );
  const body = await readJson(res);
  t.is(res.status, 200, JSON.stringify(body));
  t.like(body.data, { invoice_id: invoice.id, source_format: 'ubl', target_format: 'facturx' });
  const file = await app.request(new URL(body.data.url).pathname);
  t.is(file.status, 200);
  t.is(file.headers.get('content-type'), 'application/pdf');
  const pdf = path.join(dir, 'converted.pdf');
  await writeFile(pdf, Buffer.from(await file.arrayBuffer()));
  const report = validateAll([pdf]);
  t.deepEqual(report.files[0].errors, []);
  t.true(report.files[0].valid);

  const trail = await readJson(
    await app.request(`/api/v1/invoices/${invoice.id}/audit-trail`, { headers: { 'X-API-Key': tenant.keys.sk_test } }),
  );
  t.deepEqual(
    trail.data.map((e: { action: string }) => e.action),
    ['invoice.created', 'invoice.documents_generated', 'invoice.converted'],
  );
  t.true(trail.integrity_valid);

  const again = (await generateInvoiceDocumentsJob(
    { tenantId: tenant.tenantId, invoiceId: invoice.id },
    app.deps,
  )) as GeneratedDocuments;
  t.is(again.documents_status, 'skipped');
});
