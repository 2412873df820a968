import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { buyerVatId, rateOf, sellerVatId } from '../../domain/documents/document-rules.js';
import type { InvoiceDocument, OutputFormat } from '../../domain/documents/invoice-document.js';
import { renderFormat } from '../../domain/documents/render.js';
import { UBL_CBC, UBL_INVOICE } from '../../domain/incoming/invoice-namespaces.js';
import { parseIncomingFile } from '../../domain/incoming/parse-incoming-file.js';
import { IncomingParseError, type ParsedInvoice } from '../../domain/incoming/parsed-invoice.js';
import { INVOICE_CORPUS } from '../fixtures/invoice-corpus.js';

/** What the parser must read back from a document this project's own writers rendered. */
function expectedOf(doc: InvoiceDocument, format: OutputFormat): ParsedInvoice {
  const buyerSiret = doc.buyerIsIndividual ? null : doc.buyer.siret;
  return {
    format,
    typeCode: doc.typeCode,
    number: doc.number,
    issueDate: doc.issueDate,
    dueDate: doc.dueDate,
    currency: doc.currency,
    seller: {
      name: doc.seller.name,
      siret: doc.seller.siret,
      vatNumber: sellerVatId(doc),
      country: doc.seller.address.country,
    },
    buyer: { name: doc.buyer.name, siret: buyerSiret, vatNumber: buyerVatId(doc), country: doc.buyer.address.country },
    totals: {
      lineTotal: doc.totals.lineTotal,
      taxBasisTotal: doc.totals.taxBasisTotal,
      taxTotal: doc.totals.taxTotal,
      grandTotal: doc.totals.grandTotal,
      duePayable: doc.totals.duePayable,
    },
    lines: doc.lines.map((line) => ({
      lineNumber: String(line.lineNumber),
      description: line.description.trim(),
      quantity: line.quantity,
      unitCode: line.unitCode,
      unitPrice: line.unitPrice,
      netAmount: line.netAmount,
      vatCategory: line.vatCategory,
      vatRate: rateOf(line.vatCategory, line.vatRate),
    })),
  };
}

const MAIN_FILE = { facturx: 'facturx', ubl: 'ubl', cii: 'cii' } as const;

for (const format of ['ubl', 'cii', 'facturx'] as const) {
  test(`${format}: every corpus invoice rendered by our writers parses back to its fields`, (t) => {
    for (const { name, doc } of INVOICE_CORPUS) {
      const file = renderFormat(doc, format).find((f) => f.kind === MAIN_FILE[format])!;
      t.deepEqual(parseIncomingFile(file.content), expectedOf(doc, format), name);
    }
  });
}

const refused = (xml: string, pattern: RegExp) => (t: import('ava').ExecutionContext) => {
  const started = performance.now();
  const err = t.throws(() => parseIncomingFile(Buffer.from(xml)), { instanceOf: IncomingParseError });
  t.regex(err!.message, pattern);
  t.true(performance.now() - started < 200, 'refused quickly');
};

const LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><ID>&lol9;</ID></Invoice>`;

test('a billion-laughs payload is refused before parsing, quickly', refused(LAUGHS, /DOCTYPE/));

test('an external entity is refused, and the file it names is never read', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'xxe-'));
  const secret = join(dir, 'secret.txt');
  writeFileSync(secret, 'MARKER-7f3a9c');
  for (const target of [`file://${secret}`, 'file:///etc/passwd']) {
    const xml = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "${target}">]><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><ID>&xxe;</ID></Invoice>`;
    const err = t.throws(() => parseIncomingFile(Buffer.from(xml)), { instanceOf: IncomingParseError });
    t.notRegex(err!.message, /MARKER|root:/);
  }
});

test('a DOCTYPE in lower case or UTF-16 is refused too', (t) => {
  refused('<?xml version="1.0"?><!doctype Invoice SYSTEM "http://evil.example/x.dtd"><Invoice/>', /DOCTYPE/)(t);
  const utf16 = Buffer.concat([
    Buffer.from([0xff, 0xfe]),
    Buffer.from('<!DOCTYPE a [<!ENTITY b "c">]><Invoice>&b;</Invoice>', 'utf16le'),
  ]);
  t.throws(() => parseIncomingFile(utf16), { instanceOf: IncomingParseError, message: /DOCTYPE/ });
});

test('an undeclared entity without a DTD is an error, not an expansion', (t) => {
  refused(
    '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><ID>&xxe;</ID></Invoice>',
    /undeclared entity/,
  )(t);
});

test('predefined entities, character references and CDATA are read', (t) => {
  const parsed = parseIncomingFile(
    Buffer.from(
      `<Invoice xmlns="${UBL_INVOICE}" xmlns:cbc="${UBL_CBC}"><cbc:ID>A&amp;B&#233;&#x20AC;<![CDATA[<x>]]></cbc:ID></Invoice>`,
    ),
  );
  t.is(parsed.number, 'A&Bé€<x>');
});

test('not an invoice, malformed XML, an empty file, a PDF without XML: clear parse errors', (t) => {
  t.throws(() => parseIncomingFile(Buffer.from('<Order/>')), { message: /root element is <Order>/ });
  t.throws(() => parseIncomingFile(Buffer.from('<Invoice><ID>1</Invoice>')), { message: /does not match/ });
  t.throws(() => parseIncomingFile(Buffer.alloc(0)), { message: /empty/ });
  const pdf = renderFormat(INVOICE_CORPUS[0].doc, 'cii').find((f) => f.kind === 'pdf')!;
  t.throws(() => parseIncomingFile(pdf.content), { instanceOf: IncomingParseError, message: /no invoice XML/ });
});

test('a file over 10 MB is refused', (t) => {
  t.throws(() => parseIncomingFile(Buffer.alloc(10 * 1024 * 1024 + 1, 0x20)), { message: /10 MB/ });
});
