import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import test from 'ava';
import * as fontkit from 'fontkit';
import { stripHinting } from '../../domain/documents/pdf/strip-hinting.js';
import { woffToSfnt } from '../../domain/documents/pdf/woff-to-sfnt.js';

/** A fontkit subset of DejaVu Sans, as `FontProgram.subset` makes it before stripping. */
function hintedSubset(text: string): Buffer {
  const path = createRequire(import.meta.url).resolve(
    '@fontsource/dejavu-sans/files/dejavu-sans-latin-700-normal.woff',
  );
  const font = fontkit.create(woffToSfnt(readFileSync(path)));
  const subset = font.createSubset();
  for (const char of new Set(text)) subset.includeGlyph(font.glyphForCodePoint(char.codePointAt(0)!).id);
  return Buffer.from(subset.encode());
}

const tableTags = (font: Buffer): string[] =>
  Array.from({ length: font.readUInt16BE(4) }, (_, i) => font.toString('latin1', 12 + 16 * i, 16 + 16 * i));

function wholeFontChecksum(font: Buffer): number {
  let sum = 0;
  for (let i = 0; i + 4 <= font.length; i += 4) sum = (sum + font.readUInt32BE(i)) >>> 0;
  return sum;
}

// simple glyphs (A, x, 1), composites of a base and a mark (é, Ç, ô, Ł), punctuation
const TEXT = 'Ax1 éÇôŁ€’«»';

test('without hinting: the same outlines and advances, no instruction tables, valid checksums, smaller', (t) => {
  const hinted = hintedSubset(TEXT);
  const stripped = stripHinting(hinted);
  const before = fontkit.create(hinted);
  const after = fontkit.create(stripped);
  t.is(after.numGlyphs, before.numGlyphs);
  for (let id = 0; id < before.numGlyphs; id++) {
    t.is(after.getGlyph(id).path.toSVG(), before.getGlyph(id).path.toSVG(), `outline of glyph ${id}`);
    t.is(after.getGlyph(id).advanceWidth, before.getGlyph(id).advanceWidth, `advance of glyph ${id}`);
  }
  t.true(tableTags(hinted).includes('fpgm') && tableTags(hinted).includes('prep'));
  for (const tag of ['fpgm', 'prep', 'cvt ']) t.false(tableTags(stripped).includes(tag), tag);
  t.deepEqual(tableTags(stripped), [...tableTags(stripped)].sort(), 'tables in tag order');
  t.is(wholeFontChecksum(stripped), 0xb1b0afba, 'head.checkSumAdjustment balances the whole font');
  t.true(stripped.length < hinted.length * 0.75, `${stripped.length} bytes from ${hinted.length}`);
});

test('a font it cannot rewrite (short loca) comes back unchanged', (t) => {
  const hinted = hintedSubset(TEXT);
  const headAt = hinted.readUInt32BE(12 + 16 * tableTags(hinted).indexOf('head') + 8);
  const shortLoca = Buffer.from(hinted);
  shortLoca.writeInt16BE(0, headAt + 50);
  t.is(stripHinting(shortLoca), shortLoca);
});
