import { inflateSync } from 'node:zlib';
import test from 'ava';
import * as fontkit from 'fontkit';
import type { InvoiceDocument } from '../../domain/documents/invoice-document.js';
import type { EmbeddedFont } from '../../domain/documents/pdf/font-program.js';
import { FACES, OUTSIDE_TIERS } from '../../domain/documents/pdf/fonts.js';
import { renderInvoicePdf } from '../../domain/documents/pdf/index.js';
import { businessInvoice, europeanInvoice, longTextInvoice, westernInvoice } from '../fixtures/pdf-documents.js';

/** Reads an embedded subset back the way a PDF/A validator does: the font program and the /W array. */
function readBack(font: EmbeddedFont) {
  const program = inflateSync(font.fontFile);
  const parsed = fontkit.create(program);
  const widths = font.widths.slice('[0 ['.length, -2).split(' ').map(Number);
  return { program, parsed, widths };
}

for (const face of ['regular', 'bold'] as const) {
  test(`${face}: each prepared subset's /W widths are the font program's advances (PDF/A-3 6.2.11.5)`, (t) => {
    const { tiers, common } = FACES[face];
    t.is(tiers.length, 3);
    t.is(tiers[2], common);
    let previous = 0;
    for (const tier of tiers) {
      const { program, parsed, widths } = readBack(tier);
      t.is(program.length, tier.length1);
      t.true(widths.length > previous, 'each tier holds more glyphs than the one before');
      previous = widths.length;
      widths.forEach((width, cid) => {
        const advance = parsed.getGlyph(cid).advanceWidth;
        t.true(Math.abs((advance * 1000) / parsed.unitsPerEm - width) < 0.001, `${tier.fontName} CID ${cid}`);
      });
    }
  });
}

test('a document embeds the smallest prepared subset holding what it shows, in each face', (t) => {
  const { tierOf, tiers } = FACES.regular;
  const tierOfText = (text: string) => Math.max(...[...text].map((c) => tierOf(c.codePointAt(0)!)));
  t.is(tierOfText('Société Générale, Œuvre « Noël » à 12,50 € – n° 7'), 0);
  t.is(tierOfText('Muñoz Größe'), 1);
  t.is(tierOfText('Łódź Ștefan'), 2);
  t.is(tierOf('Ж'.codePointAt(0)!), OUTSIDE_TIERS);
  // a larger tier only adds glyphs: what the French one holds, every tier holds
  for (const char of 'Aé€’«Œ') {
    for (const tier of tiers) t.not(tier.cidOf(char.codePointAt(0)!), 0, `${char} in ${tier.fontName}`);
  }
  // which tier each face embeds; -1: a subset of the document's own
  const embedded = (doc: InvoiceDocument) => {
    const pdf = renderInvoicePdf(doc).toString('latin1');
    const tierIn = (face: 'regular' | 'bold') =>
      FACES[face].tiers.findIndex((tier) => pdf.includes(`/FontName /${tier.fontName}`));
    return { regular: tierIn('regular'), bold: tierIn('bold') };
  };
  t.deepEqual(embedded(businessInvoice), { regular: 0, bold: 0 });
  t.deepEqual(embedded(westernInvoice), { regular: 1, bold: 1 });
  t.deepEqual(embedded(europeanInvoice), { regular: 2, bold: 2 });
  // Łódź in a description; the buyer's name, in bold, has Greek and Cyrillic
  t.deepEqual(embedded(longTextInvoice), { regular: 2, bold: -1 });
});

test('each printable character maps to its own glyph, and a subset for other characters extends the common one', (t) => {
  const { program, common, commonCodePoints } = FACES.regular;
  for (const char of 'Aé€Œł’«»') t.not(common.cidOf(char.codePointAt(0)!), 0, char);
  t.is(common.cidOf('Ж'.codePointAt(0)!), 0, 'Cyrillic is not in the common subset');
  const extended = program.subset([...commonCodePoints, 'Ж'.codePointAt(0)!]);
  t.not(extended.cidOf('Ж'.codePointAt(0)!), 0);
  t.is(extended.cidOf(0x41), common.cidOf(0x41), 'common glyphs keep their CIDs');
  t.not(extended.fontName, common.fontName, 'another subset, another tag');
  t.regex(inflateSync(extended.toUnicode).toString('latin1'), /<[0-9a-f]{4}> <0416>/);
  t.true(program.advance(0x4e00) < 0, 'DejaVu Sans has no CJK');
});
