import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import type { InvoiceDocument } from '../../domain/documents/invoice-document.js';
import { renderInvoicePdf, writeFacturX } from '../../domain/documents/pdf/index.js';
import {
  businessInvoice,
  creditNote,
  europeanInvoice,
  individualInvoice,
  longTextInvoice,
  pdfDocument,
  sixtyLineInvoice,
  westernInvoice,
} from '../fixtures/pdf-documents.js';
import { type ValidatorFile, validateAll, validatorPath } from '../helpers/einvoice-validator.js';
import { hasCommand, pdfFonts, pdfText, run } from '../helpers/pdf-tools.js';

// An EN 16931 CII from the validator's samples; the PDF writer packages XML, it does not read it
const CII = readFileSync(join(validatorPath(), '../samples/valid/cii-CII_example2.xml'));

/** 3000-character descriptions of numbered words: each row is taller than the room left on a page. */
const pageLongInvoice = pdfDocument({
  lines: [1, 2, 3].map((row) => ({
    description: Array.from({ length: 300 }, (_, i) => `m${row}w${String(i).padStart(4, '0')}`).join(' '),
    quantity: '1',
    unitPrice: '10.00',
    rate: '20.00',
  })),
  number: 'F-2026-0300',
});
/** Characters DejaVu Sans has no glyph for (CJK): shown as U+FFFD, never as .notdef. */
const missingGlyphInvoice = pdfDocument({
  lines: [{ description: 'Thé vert 株式会社', quantity: '1', unitPrice: '9.90', rate: '20.00' }],
  number: 'F-2026-0301',
});

const DOCUMENTS: Record<string, InvoiceDocument> = {
  business: businessInvoice,
  individual: individualInvoice,
  sixtyLines: sixtyLineInvoice,
  longTexts: longTextInvoice,
  western: westernInvoice,
  european: europeanInvoice,
  creditNote,
  pageLong: pageLongInvoice,
  missingGlyph: missingGlyphInvoice,
};

const dir = mkdtempSync(join(tmpdir(), 'pdf-test-'));
const pdfPath = (name: string) => join(dir, `${name}.pdf`);
const facturXPath = (name: string) => join(dir, `${name}-facturx.pdf`);
let report: ValidatorFile[] = [];

test.before((t) => {
  t.timeout(600_000, 'the validator may install its tools on first use');
  for (const [name, doc] of Object.entries(DOCUMENTS)) {
    writeFileSync(pdfPath(name), renderInvoicePdf(doc));
    writeFileSync(facturXPath(name), writeFacturX(doc, CII, 'en16931'));
  }
  report = validateAll(Object.keys(DOCUMENTS).map(facturXPath)).files;
  for (const tool of ['pdftotext', 'pdffonts', 'pdfinfo', 'pdfdetach', 'qpdf']) {
    if (!hasCommand(tool)) throw new Error(`${tool} is missing: install poppler-utils and qpdf`);
  }
});
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

test('every Factur-X file passes the validator: PDF/A-3 packaging, XMP, and the embedded CII rules', (t) => {
  t.is(report.length, Object.keys(DOCUMENTS).length);
  for (const file of report) {
    t.deepEqual(file.errors, [], file.file);
    t.is(file.type, 'pdf');
    t.is(file.profile, 'EN 16931');
    const checks = file.checks.map((c) => c.name);
    t.true(checks.includes('PDF-STRUCTURE'), file.file);
    t.true(checks.includes('EN16931-CII'), file.file);
    t.deepEqual(file.pdf?.pdfaid, { part: '3', conformance: 'B' });
    t.is(file.pdf?.afRelationship, '/Data');
    t.true(file.pdf?.pdfaOutputIntent);
    t.deepEqual(file.pdf?.xmp, {
      DocumentType: 'INVOICE',
      DocumentFileName: 'factur-x.xml',
      Version: '1.0',
      ConformanceLevel: 'EN 16931',
    });
  }
});

test('every PDF passes qpdf --check and embeds all its fonts, with Unicode maps', (t) => {
  for (const name of Object.keys(DOCUMENTS)) {
    for (const path of [pdfPath(name), facturXPath(name)]) {
      const check = run('qpdf', ['--check', path]);
      t.is(check.status, 0, `${path}: ${check.stdout}${check.stderr}`);
      t.regex(check.stdout, /No syntax or stream encoding errors/);
      const fonts = pdfFonts(path);
      t.is(fonts.length, 2, path);
      for (const font of fonts) {
        t.like(font, { type: 'CID TrueType', emb: 'yes', sub: 'yes', uni: 'yes' }, path);
        t.regex(font.name, /^[A-Z]{6}\+DejaVuSans(-Bold)?$/);
      }
    }
  }
});

test('a business invoice shows its number, dates, parties, lines, VAT, totals and the legal mentions', (t) => {
  const text = pdfText(facturXPath('business'));
  for (const expected of [
    'FACTURE',
    'N° F-2026-0042',
    "Date d'émission : 15/01/2026",
    "Date d'échéance : 14/02/2026",
    'Référence acheteur : PO-7781',
    'Atelier Numérique & Fils SAS',
    'SIRET : 73282932000074',
    'N° TVA intracommunautaire : FR44732829320',
    'Boulangerie Dupré SARL',
    '69001 Lyon',
    'SIRET : 55210055400013',
    'N° TVA intracommunautaire : FR05552100554',
    '1 Développement de l’application de caisse 12,5 u 650,00 € 20 % 8 125,00 €',
    '3 Livres de recettes 3 u 24,90 € 5,5 % 74,70 €',
    'Taux normal (S) 5,5 % 74,70 € 4,11 €',
    'Total HT 9 399,70 €',
    'Total TVA 1 869,11 €',
    'Total TTC 11 268,81 €',
    'Déjà payé 1 000,00 €',
    'Net à payer 10 268,81 €',
    'Montants exprimés en euros (EUR).',
    'Conditions de paiement : Paiement à 30 jours, le 14/02/2026, par virement.',
    'des pénalités de retard sont exigibles',
    'indemnité forfaitaire pour frais de recouvrement de 40 euros',
    "Pas d'escompte pour paiement anticipé.",
  ]) {
    t.true(text.includes(expected), `missing: ${expected}`);
  }
});

test('an individual buyer has no SIRET or VAT number and the document no B2B mentions', (t) => {
  const text = pdfText(pdfPath('individual'));
  t.true(text.includes('Élodie Martin'));
  t.true(text.includes('8 chemin des Vignes'));
  const buyerBlock = text.slice(text.indexOf('CLIENT'), text.indexOf('Désignation'));
  t.true(buyerBlock.includes('33000 Bordeaux'));
  t.false(buyerBlock.includes('SIRET'));
  t.false(buyerBlock.includes('TVA'));
  t.is(text.match(/SIRET/g)?.length, 1, "the seller's only");
  for (const mention of ['pénalité', 'recouvrement', '40 euros', 'escompte']) t.false(text.includes(mention), mention);
});

test('sixty lines flow over pages, each page repeating the table header and numbered', (t) => {
  const pages = pdfText(pdfPath('sixtyLines'))
    .split('\f')
    .filter((page) => page.trim() !== '');
  t.true(pages.length >= 3);
  pages.forEach((page, i) => {
    t.true(page.includes('N° Désignation Qté Unité P.U. HT TVA Montant HT'), `header on page ${i + 1}`);
    t.true(page.includes(`Page ${i + 1} / ${pages.length}`));
  });
  const text = pages.join('\n');
  for (const line of sixtyLineInvoice.lines) {
    const figures = `${line.quantity} u ${line.unitPrice.replace('.', ',')} € 20 %`;
    // number, the description's first line, then the figures, wherever the description wraps
    t.regex(text, new RegExp(`^${line.lineNumber} Article n° ${line.lineNumber} : prestation [^\n]* ${figures}`, 'm'));
  }
  // sum of (1 + i mod 4) × (10.25 + i) for i < 60 = 6037.50, VAT 20 % = 1207.50
  t.true(text.includes('Total HT 6 037,50 €\nTotal TVA 1 207,50 €\nTotal TTC 7 245,00 €'));
});

test('long texts keep every character: accents, €, &, guillemets, Polish, Greek and Cyrillic', (t) => {
  // the figures (quantity, unit, price, rate, amount) sit after a description's first line: take them out
  const text = pdfText(pdfPath('longTexts'))
    .replace(/\s+/g, ' ')
    .replace(/ [\d,]+ u [\d ]+,\d\d € \d+ % [\d ]+,\d\d €/g, '');
  for (const line of longTextInvoice.lines) t.true(text.includes(`${line.lineNumber} ${line.description}`));
  t.true(text.includes('Société Œnologique Ωmega & Москва Trading « Les Caves Réunies »'));
  t.true(text.includes("Motif d'exonération : Exonération de TVA, article 261 du CGI (VATEX-FR-FRANCHISE)"));
});

test('a description longer than a page continues on the next, word for word', (t) => {
  const text = pdfText(pdfPath('pageLong'));
  t.true(text.split('\f').filter((page) => page.trim() !== '').length >= 3);
  const words = text.match(/m\dw\d{4}/g) ?? [];
  const expected = pageLongInvoice.lines.flatMap((line) => line.description.split(' '));
  t.deepEqual(words, expected);
});

test('a character the font lacks is shown as U+FFFD', (t) => {
  t.true(pdfText(pdfPath('missingGlyph')).includes('Thé vert \uFFFD\uFFFD\uFFFD\uFFFD'));
});

test('a credit note is titled AVOIR and names the invoice it corrects', (t) => {
  const text = pdfText(facturXPath('creditNote'));
  t.true(text.startsWith('AVOIR'));
  t.true(text.includes('N° AV-2026-0007'));
  t.true(text.includes('Facture d’origine : N° F-2026-0042 du 15/01/2026'));
  t.true(text.includes('AVOIR N° AV-2026-0007 Page 1 / 1'));
});

test('the embedded factur-x.xml is the CII given, byte for byte', (t) => {
  const out = join(dir, 'extracted.xml');
  const saved = run('pdfdetach', ['-savefile', 'factur-x.xml', '-o', out, facturXPath('business')]);
  t.is(saved.status, 0, saved.stderr);
  t.deepEqual(readFileSync(out), CII);
});

test('the XMP names each profile as Factur-X spells it', (t) => {
  const levels = { minimum: 'MINIMUM', basicwl: 'BASIC WL', basic: 'BASIC', en16931: 'EN 16931', extended: 'EXTENDED' };
  for (const [profile, level] of Object.entries(levels)) {
    const path = join(dir, `profile-${profile}.pdf`);
    writeFileSync(path, writeFacturX(businessInvoice, CII, profile as keyof typeof levels));
    const xmp = run('pdfinfo', ['-meta', path]).stdout;
    t.true(xmp.includes(`<fx:ConformanceLevel>${level}</fx:ConformanceLevel>`), profile);
    t.true(xmp.includes('<pdfaid:part>3</pdfaid:part>'));
  }
});

test('the same document gives the same bytes; another document, other bytes', (t) => {
  t.deepEqual(renderInvoicePdf(businessInvoice), renderInvoicePdf(businessInvoice));
  t.deepEqual(writeFacturX(creditNote, CII, 'en16931'), writeFacturX(creditNote, CII, 'en16931'));
  t.notDeepEqual(renderInvoicePdf(businessInvoice), renderInvoicePdf({ ...businessInvoice, number: 'F-2026-0044' }));
});

test('the XMP title escapes markup and drops control characters', (t) => {
  const path = join(dir, 'escaped.pdf');
  writeFileSync(path, writeFacturX({ ...businessInvoice, number: 'A&B<1>\u0007"' }, CII, 'en16931'));
  const xmp = run('pdfinfo', ['-meta', path]).stdout;
  t.true(xmp.includes('<rdf:li xml:lang="x-default">Facture A&amp;B&lt;1&gt;&quot;</rdf:li>'));
  t.true(pdfText(path).includes('N° A&B<1>"'));
});
