import test from 'ava';
import { renderFormat } from '../../domain/documents/render.js';
import { CII_RAM, CII_RSM, CII_UDT, UBL_CAC, UBL_CBC, UBL_INVOICE } from '../../domain/incoming/invoice-namespaces.js';
import { parseIncomingFile } from '../../domain/incoming/parse-incoming-file.js';
import { IncomingParseError } from '../../domain/incoming/parsed-invoice.js';
import { MAX_DEPTH, MAX_ELEMENTS } from '../../domain/incoming/safe-xml.js';
import { INVOICE_CORPUS } from '../fixtures/invoice-corpus.js';

/**
 * Incoming XML is read by namespace URI and local name: the prefixes a sender writes, or a
 * default namespace instead of them, change nothing; the same names in another namespace are
 * not an invoice.
 */

const rendered = (format: 'ubl' | 'cii', index = 0) =>
  renderFormat(INVOICE_CORPUS[index].doc, format)
    .find((f) => f.kind === format)!
    .content.toString('utf8');

/** Renames element prefixes (`<p:` and `</p:`) and their declarations (`xmlns:p=`). */
function renamePrefixes(xml: string, names: Record<string, string>): string {
  return xml.replace(/(<\/?|xmlns:)([A-Za-z]+)([:=])/g, (whole, lead: string, prefix: string, tail: string) =>
    prefix in names ? `${lead}${names[prefix]}${tail}` : whole,
  );
}

/** Drops a prefix from its elements, each declaring the namespace as its default instead. */
function defaultNamespace(xml: string, prefix: string, uri: string): string {
  return xml
    .replace(new RegExp(`<${prefix}:([A-Za-z]+)`, 'g'), `<$1 xmlns="${uri}"`)
    .replace(new RegExp(`</${prefix}:`, 'g'), '</');
}

const parse = (xml: string) => parseIncomingFile(Buffer.from(xml));

test('UBL with other prefixes, swapped prefixes and default namespaces reads identically', (t) => {
  for (const [index, { name }] of INVOICE_CORPUS.entries()) {
    const original = rendered('ubl', index);
    const expected = parse(original);
    t.truthy(expected.number, name);
    const root = expected.typeCode === '381' ? 'CreditNote' : 'Invoice';
    const variants = {
      'other prefixes': renamePrefixes(original, { cbc: 'b', cac: 'a' }),
      // cbc now names the aggregate namespace and cac the basic one: a reader going by prefix reads nothing.
      'swapped prefixes': renamePrefixes(original, { cbc: 'cac', cac: 'cbc' }),
      'prefixed root': original.replace(`<${root} xmlns=`, `<u:${root} xmlns:u=`).replace(`</${root}>`, `</u:${root}>`),
      'default namespaces': defaultNamespace(defaultNamespace(original, 'cbc', UBL_CBC), 'cac', UBL_CAC),
    };
    for (const [variant, xml] of Object.entries(variants)) {
      t.not(xml, original, `${name}: ${variant} changed the file`);
      t.deepEqual(parse(xml), expected, `${name}: ${variant}`);
    }
  }
});

test('CII with other prefixes and a default namespace reads identically', (t) => {
  for (const [index, { name }] of INVOICE_CORPUS.entries()) {
    const original = rendered('cii', index);
    const expected = parse(original);
    t.truthy(expected.number, name);
    const variants = {
      'other prefixes': renamePrefixes(original, { rsm: 'inv', ram: 'x', udt: 'd' }),
      'swapped prefixes': renamePrefixes(original, { rsm: 'ram', ram: 'rsm' }),
      // ram as the document's default namespace, declared once on the root.
      'default namespace': original
        .replace(/<(\/?)ram:/g, '<$1')
        .replace('<rsm:CrossIndustryInvoice ', `<rsm:CrossIndustryInvoice xmlns="${CII_RAM}" `),
      'default namespaces per element': defaultNamespace(
        defaultNamespace(defaultNamespace(original, 'ram', CII_RAM), 'udt', CII_UDT),
        'rsm',
        CII_RSM,
      ),
    };
    for (const [variant, xml] of Object.entries(variants)) {
      t.not(xml, original, `${name}: ${variant} changed the file`);
      t.deepEqual(parse(xml), expected, `${name}: ${variant}`);
    }
  }
});

const notAnInvoice = (xml: string) => (t: import('ava').ExecutionContext, pattern: RegExp) => {
  const err = t.throws(() => parse(xml), { instanceOf: IncomingParseError });
  t.regex(err!.message, /^not an invoice: the root element is </);
  t.regex(err!.message, pattern);
};

test('an <Invoice> or <CrossIndustryInvoice> in a foreign namespace, or none, is refused like an unknown format', (t) => {
  const ubl = rendered('ubl');
  notAnInvoice(ubl.replace(`xmlns="${UBL_INVOICE}"`, 'xmlns="urn:example:not-ubl"'))(
    t,
    /<Invoice> in namespace urn:example:not-ubl/,
  );
  notAnInvoice(ubl.replace(`xmlns="${UBL_INVOICE}"`, ''))(t, /<Invoice> in no namespace/);
  // UBL's element names under a CII namespace are neither UBL nor CII.
  notAnInvoice(ubl.replace(`xmlns="${UBL_INVOICE}"`, `xmlns="${CII_RSM}"`))(t, /<Invoice> in namespace urn:un:unece/);
  const cii = rendered('cii');
  notAnInvoice(cii.replace(`xmlns:rsm="${CII_RSM}"`, 'xmlns:rsm="urn:example:cii-lookalike"'))(
    t,
    /<CrossIndustryInvoice> in namespace urn:example:cii-lookalike/,
  );
  notAnInvoice('<Order xmlns="urn:oasis:names:specification:ubl:schema:xsd:Order-2"/>')(t, /<Order>/);
});

test('a UBL root over elements of other namespaces reads none of them', (t) => {
  const foreign = 'urn:example:lookalike';
  const xml = rendered('ubl')
    .replace(`xmlns:cbc="${UBL_CBC}"`, `xmlns:cbc="${foreign}"`)
    .replace(`xmlns:cac="${UBL_CAC}"`, `xmlns:cac="${foreign}"`);
  const parsed = parse(xml);
  t.like(parsed, { format: 'ubl', number: null, issueDate: null, currency: null, lines: [] });
  t.like(parsed.seller, { name: null, siret: null });
});

test('a DOCTYPE is still refused, with or without entities, in a namespaced invoice', (t) => {
  const ubl = rendered('ubl');
  const body = ubl.replace(/^<\?xml[^>]*\?>/, '');
  for (const doctype of [
    '<!DOCTYPE Invoice>',
    '<!DOCTYPE Invoice SYSTEM "http://evil.example/ubl.dtd">',
    '<!DOCTYPE Invoice [<!ENTITY x "y">]>',
  ]) {
    const err = t.throws(() => parse(`<?xml version="1.0"?>${doctype}${body}`), { instanceOf: IncomingParseError });
    t.regex(err!.message, /DOCTYPE/, doctype);
  }
});

test('a document nested deeper than the budget is refused, quickly', (t) => {
  const depth = MAX_DEPTH + 1;
  const xml = `<Invoice xmlns="${UBL_INVOICE}">${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}</Invoice>`;
  const started = performance.now();
  t.throws(() => parse(xml), { instanceOf: IncomingParseError, message: /nested too deeply/ });
  t.true(performance.now() - started < 200);
  // At the budget exactly, it is read.
  const within = `<Invoice xmlns="${UBL_INVOICE}">${'<a>'.repeat(MAX_DEPTH - 1)}${'</a>'.repeat(MAX_DEPTH - 1)}</Invoice>`;
  t.like(parse(within), { format: 'ubl', number: null });
  // A million unclosed elements: refused at the depth budget, not read through.
  const unclosed = `<Invoice xmlns="${UBL_INVOICE}">${'<a>'.repeat(1_000_000)}`;
  t.throws(() => parse(unclosed), { instanceOf: IncomingParseError, message: /nested too deeply/ });
});

test('a document of more elements than the budget is refused', (t) => {
  const xml = `<Invoice xmlns="${UBL_INVOICE}">${'<a/>'.repeat(MAX_ELEMENTS)}</Invoice>`;
  t.true(xml.length < 10 * 1024 * 1024);
  t.throws(() => parse(xml), { instanceOf: IncomingParseError, message: /too many elements/ });
});

test('a namespace prefix used without its declaration is malformed XML, not a guess', (t) => {
  const xml = rendered('ubl').replace(`xmlns:cbc="${UBL_CBC}"`, '');
  t.throws(() => parse(xml), { instanceOf: IncomingParseError, message: /unbound namespace prefix/ });
});
