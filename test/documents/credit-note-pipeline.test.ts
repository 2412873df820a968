import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import { generateCreditNoteDocuments } from '../../domain/credit-notes/operations/generate-credit-note-documents.js';
import { frenchVatNumber } from '../../domain/invoicing/invoice.js';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import { validateAll } from '../helpers/einvoice-validator.js';
import { postJson, readJson } from '../helpers/http.js';
import { type SeededTenant, seedPlatformTenant } from '../helpers/identities.js';
import { BUYER_SIRET, invoiceBody } from '../helpers/invoice-bodies.js';
import { buyerParty } from '../helpers/invoice-xml.js';
import { pdfText } from '../helpers/pdf-tools.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Credit notes against a corpus of varied invoices (rates, VAT categories, currencies, an
 * individual buyer, four-decimal prices), partial and total, rendered by the document worker's
 * operation; every CII, UBL CreditNote and Factur-X file goes through the official validator in
 * one run.
 */
let app: TestApp;
let tenant: SeededTenant;
let dir: string;

test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
  tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  dir = await mkdtemp(path.join(tmpdir(), 'credit-note-pipeline-'));
});
test.after.always(async () => {
  await app?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

type Line = { description: string; quantity: number; unit_price: number; tax_rate: number; vat_category?: string };
const line = (description: string, quantity: number, unit_price: number, tax_rate: number, vat_category?: string) =>
  ({ description, quantity, unit_price, tax_rate, ...(vat_category ? { vat_category } : {}) }) as Line;
const address = (city: string, country: string) => ({ line1: '1 Main Street', postal_code: '10115', city, country });

/**
 * Each entry: the invoice, which share of each line's quantity the credit note credits (1 = total,
 * 0 = none), and its free items (a discount, a goodwill gesture: no invoice line named).
 */
const CORPUS: { name: string; body: Record<string, unknown>; share: number; free?: Line[] }[] = [
  {
    name: 'four French rates, partial',
    share: 0.5,
    body: {
      lines: [
        line('Conseil', 3, 400, 20),
        line('Restauration', 2, 35.5, 10),
        line('Livres', 4, 12.9, 5.5),
        line('Presse', 10, 1.9, 2.1),
      ],
    },
  },
  {
    name: 'four French rates, total',
    share: 1,
    body: { lines: [line('Conseil', 3, 400, 20), line('Livres', 4, 12.9, 5.5)] },
  },
  { name: 'zero rated Z', share: 1, body: { lines: [line('Bien taxé à zéro', 2, 150, 0, 'Z')] } },
  { name: 'exempt E', share: 0.5, body: { lines: [line('Formation professionnelle', 2, 1200, 0)] } },
  {
    name: 'reverse charge AE',
    share: 0.4,
    body: { buyer_vat_number: 'FR83443061841', lines: [line('Sous-traitance', 5, 640, 0, 'AE')] },
  },
  {
    name: 'intra-community K',
    share: 1,
    body: {
      buyer_siret: undefined,
      buyer_name: 'Käufer GmbH',
      buyer_country: 'DE',
      buyer_vat_number: 'DE123456789',
      buyer_address: address('Berlin', 'DE'),
      lines: [line('Machine-outil', 2, 18500, 0, 'K')],
    },
  },
  {
    name: 'export G in USD',
    share: 0.25,
    body: {
      currency: 'USD',
      buyer_siret: undefined,
      buyer_name: 'Buyer Inc.',
      buyer_country: 'US',
      buyer_address: { line1: '350 Fifth Avenue', postal_code: '10118', city: 'New York', country: 'US' },
      lines: [line('Software licence', 12, 99.99, 0, 'G')],
    },
  },
  { name: 'not subject O', share: 1, body: { lines: [line('Débours refacturés', 1, 85.4, 0, 'O')] } },
  {
    name: 'individual buyer',
    share: 0.5,
    body: {
      buyer_siret: undefined,
      buyer_is_individual: true,
      buyer_name: 'Jeanne Martin',
      lines: [line('Cours particulier', 4, 45, 20)],
    },
  },
  {
    name: 'business buyer with VAT number',
    share: 0.5,
    body: { buyer_vat_number: frenchVatNumber(BUYER_SIRET), lines: [line('Conseil', 4, 45, 20)] },
  },
  {
    name: 'four-decimal prices',
    share: 0.3333,
    body: { lines: [line('Électricité (kWh)', 1234.567, 0.1789, 20), line('Abonnement', 3, 12.3456, 5.5)] },
  },
  {
    name: 'goodwill gesture only',
    share: 0,
    body: { lines: [line('Conseil', 3, 400, 20), line('Livres', 4, 12.9, 5.5)] },
    free: [line('Geste commercial', 1, 150, 20)],
  },
  {
    name: 'bound lines and free items, two rates',
    share: 0.5,
    body: { lines: [line('Conseil', 3, 400, 20), line('Restauration', 2, 35.5, 10)] },
    free: [line('Remise fidélité', 1, 99.99, 20), line('Geste commercial', 2, 4.75, 10)],
  },
  {
    name: 'goodwill gesture on an exempt invoice',
    share: 0,
    body: { lines: [line('Formation professionnelle', 2, 1200, 0)] },
    free: [line('Remise', 1, 100, 0)],
  },
  {
    name: 'goodwill gesture at 0 % under two categories (E and AE)',
    share: 0,
    body: {
      buyer_vat_number: 'FR83443061841',
      lines: [line('Formation professionnelle', 2, 1200, 0), line('Sous-traitance', 5, 640, 0, 'AE')],
    },
    free: [line('Remise sous-traitance', 1, 200, 0, 'AE')],
  },
];

async function createAndRender(entry: (typeof CORPUS)[number]) {
  const { total_ht, total_tax, total_ttc, lines, ...base } = invoiceBody();
  const body: Record<string, unknown> = { ...base, ...entry.body };
  for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
  const headers = { 'X-Tenant-Key': tenant.keys.sk_test };
  const created = await readJson(await app.request('/api/v1/tenant/invoices', postJson(body, headers)));
  if (!created.data) throw new Error(`${entry.name}: ${JSON.stringify(created)}`);
  const invoice = created.data;
  const bound = invoice.lines.map(
    (l: { line_number: number; description: string; quantity: number; unit_price: number; tax_rate: number }) => ({
      line_number: l.line_number,
      description: l.description,
      quantity: Number((l.quantity * entry.share).toFixed(3)) || 0.001,
      unit_price: l.unit_price,
      tax_rate: l.tax_rate,
    }),
  );
  const items = [...(entry.share > 0 ? bound : []), ...(entry.free ?? [])];
  const res = await app.request(
    '/api/v1/credit-notes',
    postJson({ invoice_id: invoice.id, reason: `Avoir ${entry.name}`, items }, { 'X-API-Key': tenant.keys.sk_test }),
  );
  const note = await readJson(res);
  if (res.status !== 201) throw new Error(`${entry.name}: ${res.status} ${JSON.stringify(note)}`);
  const generated = await execute(
    generateCreditNoteDocuments,
    { id: note.data.id },
    systemCaller(tenant.tenantId),
    app.deps,
  );
  if (generated.documents_status !== 'ready') throw new Error(`${entry.name}: ${JSON.stringify(generated)}`);
  const files = await app
    .ownerDb('credit_note_documents')
    .where({ credit_note_id: note.data.id })
    .select('kind', 'content');
  return { invoice, creditNote: note.data, files: files as { kind: string; content: Buffer }[] };
}

test('every credit note of the corpus passes the official EN 16931 and Factur-X rules in CII, UBL and Factur-X', async (t) => {
  t.timeout(10 * 60_000);
  const written: { file: string; label: string }[] = [];
  const types = new Set<string>();
  for (const entry of CORPUS) {
    const { invoice, creditNote, files } = await createAndRender(entry);
    types.add(creditNote.type);
    t.deepEqual(files.map((f) => f.kind).sort(), ['cii', 'facturx', 'pdf', 'ubl'], entry.name);
    const cii = files.find((f) => f.kind === 'cii')!.content.toString();
    t.regex(cii, /<ram:TypeCode>381<\/ram:TypeCode>/, `${entry.name}: CII type 381`);
    t.true(
      cii.includes(
        `<ram:InvoiceReferencedDocument><ram:IssuerAssignedID>${invoice.invoice_number}</ram:IssuerAssignedID>`,
      ),
      `${entry.name}: BT-25`,
    );
    const ubl = files.find((f) => f.kind === 'ubl')!.content.toString();
    t.regex(ubl, /<CreditNoteTypeCode>381<\/CreditNoteTypeCode>|<cbc:CreditNoteTypeCode>381<\/cbc:CreditNoteTypeCode>/);
    t.regex(ubl, /<cac:CreditNoteLine>.*<cbc:CreditedQuantity/s);
    for (const free of entry.free ?? []) {
      t.true(cii.includes(`<ram:Name>${free.description}</ram:Name>`), `${entry.name}: ${free.description} in the CII`);
      const item = creditNote.items.find((i: { description: string }) => i.description === free.description);
      t.is(item.invoice_line_number, null, `${entry.name}: ${free.description} names no invoice line`);
    }
    for (const f of files.filter((f) => f.kind !== 'pdf')) {
      const file = path.join(dir, `${written.length}-${f.kind}.${f.kind === 'facturx' ? 'pdf' : 'xml'}`);
      await writeFile(file, f.content);
      written.push({ file, label: `${entry.name} (${f.kind})` });
    }
  }
  t.deepEqual([...types].sort(), ['partial', 'total']);
  const report = validateAll(written.map((w) => w.file));
  for (const w of written) {
    const result = report.files.find((f) => f.file === w.file);
    const errors = result?.errors.map((e) => `  [${e.rule}] ${e.message}`).join('\n');
    t.true(result?.valid === true && result.errors.length === 0, `${w.label}\n${errors ?? 'no report'}`);
  }
  t.is(written.length, CORPUS.length * 3);
});

test('a credit note inherits buyer_is_individual: no BT-46/47/48, no B2B mentions; the PDF is titled Avoir', async (t) => {
  for (const [name, individual] of [
    ['individual buyer', true],
    ['business buyer with VAT number', false],
  ] as const) {
    const { creditNote, invoice, files } = await createAndRender(CORPUS.find((e) => e.name === name)!);
    t.is(creditNote.buyer_is_individual, individual);
    for (const [kind, syntax] of [
      ['ubl', 'ubl'],
      ['cii', 'en16931'],
    ] as const) {
      const buyer = buyerParty(files.find((f) => f.kind === kind)!.content, syntax);
      t.truthy(buyer.name);
      if (individual)
        t.deepEqual([buyer.identifier, buyer.legalId, buyer.vatId], [null, null, null], `${name} ${kind}`);
      else t.truthy(buyer.vatId, `${name} ${kind}: BT-48`);
    }
    const pdf = path.join(dir, `${name.replace(/\W+/g, '-')}.pdf`);
    await writeFile(pdf, files.find((f) => f.kind === 'pdf')!.content);
    const text = pdfText(pdf).replace(/\s+/g, ' ');
    t.regex(text, /AVOIR/);
    t.true(text.includes(invoice.invoice_number), `${name}: the invoice referenced`);
    t.is(/pénalités de retard/i.test(text), !individual, `${name}: late-payment penalties`);
    t.is(/40 euros/.test(text), !individual, `${name}: recovery indemnity`);
  }
});
