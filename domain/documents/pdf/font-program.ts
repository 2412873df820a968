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
  /** The CIDs of text (each character's, `cidOf`) as four hex digits each, for `<...> Tj` with Identity-H. */
  hex(text: string): string;
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

const NOT_LOOKED_UP = -2;

/**
 * One TrueType font parsed once per process: glyph advances for layout (cached per code point) and
 * subsets to embed. Text is laid out glyph by glyph without shaping (no kerning or ligatures), which
 * is what invoices in Latin scripts need and keeps a page at a few hundred microseconds.
 */
export class FontProgram {
  readonly scale: number;
  private readonly font: fontkit.Font;
  // Advances in millionths of an em (integers, so reading one allocates nothing); -1 = the font has
  // no glyph, NOT_LOOKED_UP = not looked up yet
  private readonly bmpAdvances = new Int32Array(0x10000).fill(NOT_LOOKED_UP);
  private readonly astralAdvances = new Map<number, number>();

  constructor(sfnt: Buffer) {
    this.font = fontkit.create(sfnt);
    this.scale = 1000 / this.font.unitsPerEm;
  }

  /** The advance of a code point in 1/1000 em, or -1 when the font has no glyph for it. */
  advance(codePoint: number): number {
    const micro = this.advanceMicro(codePoint);
    return micro < 0 ? -1 : micro / 1000;
  }

  /**
   * The advance in millionths of an em (an integer), or -1 when the font has no glyph: what
   * `textWidth` sums, exactly, a character at a time.
   */
  advanceMicro(codePoint: number): number {
    if (codePoint < 0x10000) {
      const known = this.bmpAdvances[codePoint];
      if (known !== NOT_LOOKED_UP) return known;
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

  /** Whether the font has a glyph for a code point. */
  hasGlyph(codePoint: number): boolean {
    return this.advanceMicro(codePoint) >= 0;
  }

  /** Embeds the glyphs of these code points (each must have a glyph: check `hasGlyph` first). */
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
    const cidOf = (codePoint: number): number =>
      codePoint < 0x10000 ? bmpCids[codePoint] : (astralCids.get(codePoint) ?? 0);
    return {
      fontName,
      cidOf,
      hex: (text) => cidsAsHex(text, cidOf),
      widths: `[0 [${widthByCid.join(' ')}]]`,
      descriptor: this.descriptor(fontName),
      fontFile: deflateSync(program),
      length1: program.length,
      toUnicode: deflateSync(buildToUnicodeCMap(unicodeByCid)),
    };
  }

  /** In millionths of an em: the width in 1/1000 em to three decimals, as the PDF's /W gives it. */
  private lookUp(codePoint: number): number {
    if (!this.font.hasGlyphForCodePoint(codePoint)) return -1;
    return Math.round(this.font.glyphForCodePoint(codePoint).advanceWidth * this.scale * 1000);
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

/** Two bytes per CID, reused from one text to the next: a page shows thousands of characters. */
let cidBytes = Buffer.allocUnsafe(512);

/**
 * Big-endian CIDs written as bytes and hex-encoded in one call: building the string four digits at
 * a time made a string per character, a fifth of all a rendering allocated.
 */
function cidsAsHex(text: string, cidOf: (codePoint: number) => number): string {
  if (cidBytes.length < text.length * 2) cidBytes = Buffer.allocUnsafe(text.length * 4);
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const codePoint = text.codePointAt(i)!;
    if (codePoint > 0xffff) i++;
    const cid = cidOf(codePoint);
    cidBytes[length++] = cid >> 8;
    cidBytes[length++] = cid & 0xff;
  }
  return cidBytes.toString('hex', 0, length);
}

function subsetTag(postscriptName: string, unicodeByCid: readonly number[]): string {
  const digest = createHash('sha256')
    .update(`${postscriptName}:${unicodeByCid.join(',')}`)
    .digest();
  return Array.from(digest.subarray(0, 6), (byte) => String.fromCharCode(65 + (byte % 26))).join('');
}
