import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import * as fontkit from 'fontkit';
import { stripHinting } from './strip-hinting.js';
import { buildToUnicodeCMap } from './to-unicode-cmap.js';

/** A glyph subset ready to embed as a PDF Type 0 / CIDFontType2 font (ISO 32000-1 §9.7.4). */
export interface EmbeddedFont {
  /** `ABCDEF+DejaVuSans`: a subset gets a six-letter tag (ISO 32000-1 §9.6.4). */
  fontName: string;
  /** The CID (= glyph id in the subset, CIDToGIDMap /Identity) of a code point; 0 when the subset lacks it. */
  cidOf(codePoint: number): number;
  /** Four hex digits per CID, for `<...> Tj` with the Identity-H encoding. */
  hexByCid: readonly string[];
  /** `/W` array: each CID's advance in glyph space, equal to the font program's `hmtx` (PDF/A-3 6.2.11.5). */
  widths: string;
  /** FontDescriptor entries other than /FontFile2. */
  descriptor: string;
  /** The TrueType subset, deflated once; `length1` is its size before compression. */
  fontFile: Buffer;
  length1: number;
  /** The ToUnicode CMap, deflated: it is what makes the text extractable (pdftotext, search, copy). */
  toUnicode: Buffer;
}

/**
 * One TrueType font parsed once per process: glyph advances for layout (cached per code point) and
 * subsets to embed. Text is laid out glyph by glyph without shaping (no kerning or ligatures), which
 * is what invoices in Latin scripts need and keeps a page at a few hundred microseconds.
 */
export class FontProgram {
  readonly scale: number;
  private readonly font: fontkit.Font;
  // BMP advances in 1/1000 em; NaN = not looked up yet, -1 = the font has no glyph
  private readonly bmpAdvances = new Float64Array(0x10000).fill(Number.NaN);
  private readonly astralAdvances = new Map<number, number>();

  constructor(sfnt: Buffer) {
    this.font = fontkit.create(sfnt);
    this.scale = 1000 / this.font.unitsPerEm;
  }

  /** The advance of a code point in 1/1000 em, or -1 when the font has no glyph for it. */
  advance(codePoint: number): number {
    if (codePoint < 0x10000) {
      const known = this.bmpAdvances[codePoint];
      if (!Number.isNaN(known)) return known;
      const width = this.lookUp(codePoint);
      this.bmpAdvances[codePoint] = width;
      return width;
    }
    let width = this.astralAdvances.get(codePoint);
    if (width === undefined) {
      width = this.lookUp(codePoint);
      this.astralAdvances.set(codePoint, width);
    }
    return width;
  }

  /** Embeds the glyphs of these code points (each must have a glyph: check `advance` first). */
  subset(codePoints: Iterable<number>): EmbeddedFont {
    const subset = this.font.createSubset();
    const bmpCids = new Uint16Array(0x10000);
    const astralCids = new Map<number, number>();
    const unicodeByCid: number[] = [0];
    const widthByCid: number[] = [round(this.font.glyphForCodePoint(0).advanceWidth * this.scale)];
    for (const codePoint of codePoints) {
      const glyph = this.font.glyphForCodePoint(codePoint);
      if (glyph.id === 0) throw new Error(`no glyph for U+${codePoint.toString(16)}`);
      const cid = subset.includeGlyph(glyph.id);
      if (codePoint < 0x10000) bmpCids[codePoint] = cid;
      else astralCids.set(codePoint, cid);
      if (unicodeByCid[cid] === undefined) {
        unicodeByCid[cid] = codePoint;
        widthByCid[cid] = round(glyph.advanceWidth * this.scale);
      }
    }
    const program = stripHinting(Buffer.from(subset.encode()));
    const fontName = `${subsetTag(this.font.postscriptName, unicodeByCid)}+${this.font.postscriptName}`;
    return {
      fontName,
      cidOf: (codePoint) => (codePoint < 0x10000 ? bmpCids[codePoint] : (astralCids.get(codePoint) ?? 0)),
      hexByCid: widthByCid.map((_, cid) => cid.toString(16).padStart(4, '0')),
      widths: `[0 [${widthByCid.join(' ')}]]`,
      descriptor: this.descriptor(fontName),
      fontFile: deflateSync(program),
      length1: program.length,
      toUnicode: deflateSync(buildToUnicodeCMap(unicodeByCid)),
    };
  }

  private lookUp(codePoint: number): number {
    if (!this.font.hasGlyphForCodePoint(codePoint)) return -1;
    return round(this.font.glyphForCodePoint(codePoint).advanceWidth * this.scale);
  }

  private descriptor(fontName: string): string {
    const { font, scale } = this;
    const box = font.bbox;
    // DejaVu's OS/2 table predates capHeight, so take it from the H
    const capHeight = font.glyphForCodePoint(0x48).bbox.maxY;
    const bbox = [box.minX, box.minY, box.maxX, box.maxY].map((v) => Math.round(v * scale)).join(' ');
    // Flags: 4 = symbolic, as for every CIDFont whose program is reached through CIDToGIDMap, not a cmap
    return (
      `/Type /FontDescriptor /FontName /${fontName} /Flags ${font.post.isFixedPitch ? 5 : 4} /FontBBox [${bbox}]` +
      ` /ItalicAngle ${font.italicAngle} /Ascent ${Math.round(font.ascent * scale)}` +
      ` /Descent ${Math.round(font.descent * scale)} /CapHeight ${Math.round(capHeight * scale)} /StemV 80`
    );
  }
}

const round = (value: number): number => Math.round(value * 1000) / 1000;

function subsetTag(postscriptName: string, unicodeByCid: readonly number[]): string {
  const digest = createHash('sha256')
    .update(`${postscriptName}:${unicodeByCid.join(',')}`)
    .digest();
  return Array.from(digest.subarray(0, 6), (byte) => String.fromCharCode(65 + (byte % 26))).join('');
}
