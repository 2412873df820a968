import { inflateSync } from 'node:zlib';
import test from 'ava';
import * as fontkit from 'fontkit';
import type { EmbeddedFont } from '../../domain/documents/pdf/font-program.js';
import { FACES } from '../../domain/documents/pdf/fonts.js';

/** Reads an embedded subset back the way a PDF/A validator does: the font program and the /W array. */
function readBack(font: EmbeddedFont) {
  const program = inflateSync(font.fontFile);
  const parsed = fontkit.create(program);
  const widths = font.widths.slice('[0 ['.length, -2).split(' ').map(Number);
  return { program, parsed, widths };
}

for (const face of ['regular', 'bold'] as const) {
  test(`${face}: the common subset's /W widths are the font program's advances (PDF/A-3 6.2.11.5)`, (t) => {
    const { common } = FACES[face];
    const { program, parsed, widths } = readBack(common);
    t.is(program.length, common.length1);
    t.true(widths.length > 300);
    widths.forEach((width, cid) => {
      const advance = parsed.getGlyph(cid).advanceWidth;
      t.true(Math.abs((advance * 1000) / parsed.unitsPerEm - width) < 0.001, `CID ${cid}`);
    });
  });
}

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
