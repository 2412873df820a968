import test from 'ava';
import { writeCii } from '../../domain/documents/cii.js';
import type { CiiProfile } from '../../domain/documents/invoice-document.js';
import { writeUbl } from '../../domain/documents/ubl.js';
import { escapeAttribute, escapeText, XmlWriter } from '../../domain/documents/xml-writer.js';
import { INVOICE_CORPUS } from '../fixtures/invoice-corpus.js';

test('element text escapes markup and CR, drops what XML 1.0 cannot carry, keeps the rest', (t) => {
  t.is(escapeText(`a & b < c > d "e" 'f'`), `a &amp; b &lt; c &gt; d "e" 'f'`);
  t.is(escapeText('l1\r\nl2\tend'), 'l1&#13;\nl2\tend');
  t.is(escapeText('bell\u0007 nul\u0000 ok\uFFFF'), 'bell nul ok');
  t.is(escapeText('Société 🚀 €'), 'Société 🚀 €');
  // the same input twice: no state kept between calls (a global RegExp's lastIndex)
  for (let i = 0; i < 3; i++) t.is(escapeText('x\u0001&'), 'x&amp;');
});

test('attribute values also escape quotes and whitespace other than a space', (t) => {
  t.is(escapeAttribute('a"b&c<d\te\nf g'), 'a&quot;b&amp;c&lt;d&#9;e&#10;f g');
});

test('the writer nests, skips empty optional values and encodes UTF-8', (t) => {
  const w = new XmlWriter('<?xml version="1.0" encoding="UTF-8"?>\n');
  w.open('r').text('a', 'x<y').optionalText('b', null).optionalText('c', '').optionalText('d', 'é');
  w.textWith('e', 'k', 'v"w', '1').close('r');
  const xml = w.toBuffer();
  t.is(
    xml.toString('utf8'),
    '<?xml version="1.0" encoding="UTF-8"?>\n<r><a>x&lt;y</a><d>é</d><e k="v&quot;w">1</e></r>',
  );
  t.true(xml.includes(Buffer.from([0xc3, 0xa9])), 'é as UTF-8 bytes');
});

test('an unknown Factur-X profile is refused rather than written', (t) => {
  const doc = INVOICE_CORPUS[0]!.doc;
  t.throws(() => writeCii(doc, 'xrechnung' as CiiProfile), { message: /unknown Factur-X profile/ });
  t.throws(() => writeCii({ ...doc, issueDate: '02/03/2026' }), { message: /not an ISO date/ });
  t.throws(() => writeUbl({ ...doc, dueDate: '2026-4-1' }), { message: /not an ISO date/ });
});
