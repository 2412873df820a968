/**
 * The part of fontkit 2 (which ships no types) that the PDF writer uses: parse a TrueType font once,
 * read its metrics and glyph advances, and encode a glyph subset (the same calls pdfkit makes).
 */
declare module 'fontkit' {
  interface Glyph {
    id: number;
    advanceWidth: number;
    bbox: { minX: number; minY: number; maxX: number; maxY: number };
    /** The outline (read by tests that compare a subset's glyphs with the font's). */
    path: { toSVG(): string };
  }

  interface Subset {
    /** Adds a glyph (once) and returns its id in the subset; glyph 0 (.notdef) is always id 0. */
    includeGlyph(glyph: number | Glyph): number;
    /** The subset as a TrueType file (composite glyphs' components are appended after ours). */
    encode(): Uint8Array;
  }

  interface Font {
    postscriptName: string;
    numGlyphs: number;
    unitsPerEm: number;
    ascent: number;
    descent: number;
    italicAngle: number;
    bbox: { minX: number; minY: number; maxX: number; maxY: number };
    post: { isFixedPitch: number };
    hasGlyphForCodePoint(codePoint: number): boolean;
    glyphForCodePoint(codePoint: number): Glyph;
    createSubset(): Subset;
    getGlyph(id: number): Glyph;
  }

  export function create(buffer: Uint8Array, postscriptName?: string): Font;
}
