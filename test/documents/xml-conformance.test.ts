import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import anyTest, { type TestFn } from 'ava';
import { writeCii } from '../../domain/documents/cii.js';
import { CII_PROFILES, type CiiProfile, type InvoiceDocument } from '../../domain/documents/invoice-document.js';
import { writeUbl } from '../../domain/documents/ubl.js';
import { corpusDocument, INVOICE_CORPUS } from '../fixtures/invoice-corpus.js';
import { type ValidatorFile, validateAll } from '../helpers/einvoice-validator.js';
import { buyerParty } from '../helpers/invoice-xml.js';

/**
 * Every corpus document as UBL and as CII (EN 16931), and a selection in each other Factur-X
 * profile, checked by the official rules (CEN EN 16931 1.3.16, Factur-X 1.09, the XSDs) in one
 * run of the shared validator: it takes seconds to start, so one batch.
 */

const IN_EVERY_PROFILE = [
  'multi-rate',
  'individual-buyer',
  'individual-buyer-with-ids',
  'credit-note',
  'intra-community-k-de',
  'export-g-us-usd',
  'not-subject-o',
  'long-hostile-texts',
];

type FileReport = ValidatorFile;
interface Written {
  name: string;
  syntax: 'ubl' | CiiProfile;
  xml: Buffer;
  file: string;
}

const test = anyTest as TestFn<{ written: Written[]; reports: Map<string, FileReport> }>;

/** The checks the validator must have run, so a misdetected file cannot pass by being checked less. */
const EXPECTED_CHECKS: Record<Written['syntax'], string[]> = {
  ubl: ['UBL-2.1-XSD', 'EN16931-UBL'],
  minimum: ['CII-D16B-XSD', 'FX-MINIMUM-XSD', 'FX-MINIMUM'],
  basicwl: ['CII-D16B-XSD', 'FX-BASICWL-XSD', 'FX-BASICWL'],
  basic: ['CII-D16B-XSD', 'FX-BASIC-XSD', 'FX-BASIC', 'EN16931-CII'],
  en16931: ['CII-D16B-XSD', 'FX-EN16931-XSD', 'FX-EN16931', 'EN16931-CII'],
  extended: ['CII-D16B-XSD', 'FX-EXTENDED-XSD', 'FX-EXTENDED', 'EN16931-CII'],
};

/** The validator's XPath without its `[namespace-uri()=…]` predicates. */
const shortPath = (location = ''): string => location.replace(/\[namespace-uri\(\)='[^']*'\]/g, '');

function documentsToWrite(): { name: string; syntax: Written['syntax']; doc: InvoiceDocument }[] {
  const all = INVOICE_CORPUS.flatMap(({ name, doc }) => [
    { name, syntax: 'ubl' as const, doc },
    { name, syntax: 'en16931' as const, doc },
  ]);
  for (const profile of CII_PROFILES.filter((p) => p !== 'en16931')) {
    for (const name of IN_EVERY_PROFILE) all.push({ name, syntax: profile as 'en16931', doc: corpusDocument(name) });
  }
  return all;
}

test.before(async (t) => {
  t.timeout(10 * 60_000, 'the validator starts a JVM and compiles the Schematron XSLTs');
  const dir = await mkdtemp(path.join(tmpdir(), 'xml-conformance-'));
  const written: Written[] = [];
  for (const { name, syntax, doc } of documentsToWrite()) {
    const xml = syntax === 'ubl' ? writeUbl(doc) : writeCii(doc, syntax);
    const file = path.join(dir, `${name}.${syntax}.xml`);
    await writeFile(file, xml);
    written.push({ name, syntax, xml, file });
  }
  const reports = new Map<string, FileReport>();
  for (const report of validateAll(written.map((w) => w.file)).files) reports.set(report.file, report);
  t.context = { written, reports };
  await rm(dir, { recursive: true, force: true });
});

test('the corpus covers what the writers must handle', (t) => {
  t.true(INVOICE_CORPUS.length >= 14);
  const docs = INVOICE_CORPUS.map((e) => e.doc);
  for (const category of ['S', 'Z', 'E', 'AE', 'K', 'G', 'O']) {
    t.true(
      docs.some((d) => d.vatBreakdown.some((row) => row.category === category)),
      category,
    );
  }
  t.true(docs.some((d) => d.typeCode === '381' && d.precedingInvoice !== null));
  t.true(docs.some((d) => d.currency !== 'EUR'));
  t.true(docs.some((d) => d.lines.length >= 60));
});

test('every document passes the official rules with no error', (t) => {
  const { written, reports } = t.context;
  t.is(written.length, INVOICE_CORPUS.length * 2 + IN_EVERY_PROFILE.length * 4);
  for (const w of written) {
    const report = reports.get(w.file);
    if (!report) {
      t.fail(`${w.file}: no report`);
      continue;
    }
    const ran = report.checks.map((c) => c.name);
    t.deepEqual(
      ran.filter((name) => EXPECTED_CHECKS[w.syntax].includes(name)).sort(),
      EXPECTED_CHECKS[w.syntax].sort(),
    );
    const errors = report.errors.map((e) => `  ${e.message} (${e.check}; ${shortPath(e.location)})`).join('\n');
    t.true(report.valid && report.errors.length === 0, `${w.name} as ${w.syntax}:\n${errors}`);
  }
});

test('an individual buyer has no BT-46, BT-47 or BT-48; a business buyer has all three', (t) => {
  const names = ['individual-buyer', 'individual-buyer-with-ids', 'multi-rate'];
  const checked = t.context.written.filter((x) => names.includes(x.name));
  t.is(checked.length, names.length * CII_PROFILES.length + names.length, 'UBL and every CII profile');
  for (const w of checked) {
    const doc = corpusDocument(w.name);
    const buyer = buyerParty(w.xml, w.syntax);
    const label = `${w.name} as ${w.syntax}`;
    t.is(buyer.name, doc.buyer.name, label);
    if (doc.buyerIsIndividual) {
      t.deepEqual([buyer.identifier, buyer.legalId, buyer.vatId], [null, null, null], label);
      if (w.syntax !== 'minimum') t.is(buyer.city, doc.buyer.address.city, `${label}: the address is kept`);
    } else if (w.syntax === 'minimum') {
      t.is(buyer.legalId, doc.buyer.siret, `${label}: MINIMUM has room for BT-47 only`);
    } else {
      const { siret, vatNumber } = doc.buyer;
      t.deepEqual([buyer.identifier, buyer.legalId, buyer.vatId], [siret, siret, vatNumber], label);
    }
  }
});

test('texts come back from the XML exactly as given, less the characters XML cannot carry', (t) => {
  const doc = corpusDocument('long-hostile-texts');
  for (const w of t.context.written.filter((x) => x.name === 'long-hostile-texts' && x.syntax !== 'minimum')) {
    t.is(buyerParty(w.xml, w.syntax).name, doc.buyer.name, w.syntax);
  }
  const ubl = t.context.written.find((x) => x.name === 'long-hostile-texts' && x.syntax === 'ubl')!.xml.toString();
  t.true(ubl.includes('ligne 2 \uFFFD fin'), 'BEL dropped, the lone surrogate encoded as U+FFFD');
  t.true(ubl.includes('réception.&#13;\nVirement'), 'CR kept as a reference');
});
