import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type EmbeddedFont, FontProgram } from './font-program.js';
import { woffToSfnt } from './woff-to-sfnt.js';

/** The two weights the invoice uses. */
export type FaceName = 'regular' | 'bold';

/** One weight: its font program (metrics, any glyph) and the subset embedded in most documents. */
export interface Face {
  program: FontProgram;
  /** Latin-1, Latin Extended-A and the usual punctuation and symbols (€, –, ’, …), encoded once. */
  common: EmbeddedFont;
  /** The code points `common` holds, to build a larger subset from when a document needs more. */
  commonCodePoints: readonly number[];
}

/** Shown instead of a character the font has no glyph for: PDF/A forbids showing .notdef (6.2.11.8). */
export const REPLACEMENT_CHARACTER = 0xfffd;

function loadFace(file: string): Face {
  const path = createRequire(import.meta.url).resolve(`@fontsource/dejavu-sans/files/${file}`);
  const program = new FontProgram(woffToSfnt(readFileSync(path)));
  const commonCodePoints = COMMON_CODE_POINTS.filter((codePoint) => program.advance(codePoint) >= 0);
  return { program, common: program.subset(commonCodePoints), commonCodePoints };
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

const COMMON_CODE_POINTS = [
  ...range(0x20, 0x7e),
  ...range(0xa0, 0x17f), // Latin-1 Supplement, Latin Extended-A (Polish, Czech, Hungarian, Baltic names)
  0x192,
  ...range(0x218, 0x21b), // Romanian Ș ș Ț ț
  0x2c6,
  0x2dc,
  ...[0x2009, 0x2013, 0x2014, 0x2018, 0x2019, 0x201a, 0x201c, 0x201d, 0x201e, 0x2020, 0x2021, 0x2022],
  ...[0x2026, 0x202f, 0x2030, 0x2039, 0x203a, 0x20ac, 0x2122, 0x2212],
  REPLACEMENT_CHARACTER,
];

/**
 * DejaVu Sans, from the `@fontsource/dejavu-sans` package (its "latin" files carry the whole font,
 * 6253 glyphs; Bitstream Vera licence, redistributable and embeddable): a fresh `npm install` has
 * it, and no binary font is committed. It covers every European Latin, Greek and Cyrillic letter, so
 * a name is never shown with a missing glyph. PDF/A forbids fonts that are not embedded, which rules
 * out the standard 14.
 *
 * Parsed and subset once, when this module loads: documents only copy the prepared bytes.
 */
export const FACES: Readonly<Record<FaceName, Face>> = {
  regular: loadFace('dejavu-sans-latin-400-normal.woff'),
  bold: loadFace('dejavu-sans-latin-700-normal.woff'),
};
