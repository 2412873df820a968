import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type EmbeddedFont, FontProgram } from './font-program.js';
import { woffToSfnt } from './woff-to-sfnt.js';

/** The two weights the invoice uses. */
export type FaceName = 'regular' | 'bold';

/** One weight: its font program (metrics, any glyph) and the subsets most documents embed. */
export interface Face {
  program: FontProgram;
  /**
   * Prepared subsets, smallest first (French, then Western, then European Latin: `TIERS`), encoded
   * once: a document embeds the first that holds every character it shows in this face.
   */
  tiers: readonly EmbeddedFont[];
  /** The largest tier, which a document needing still other characters extends. */
  common: EmbeddedFont;
  /** The code points `common` holds, to build a larger subset from when a document needs more. */
  commonCodePoints: readonly number[];
  /** The first tier holding a code point; `OUTSIDE_TIERS` when none does. */
  tierOf(codePoint: number): number;
}

export const OUTSIDE_TIERS = 0xff;

/** Shown instead of a character the font has no glyph for: PDF/A forbids showing .notdef (6.2.11.8). */
export const REPLACEMENT_CHARACTER = 0xfffd;

function loadFace(file: string): Face {
  const path = createRequire(import.meta.url).resolve(`@fontsource/dejavu-sans/files/${file}`);
  const program = new FontProgram(woffToSfnt(readFileSync(path)));
  const tierOfBmp = new Uint8Array(0x10000).fill(OUTSIDE_TIERS);
  const tiers = TIERS.map((codePoints, tier) => {
    const held = codePoints.filter((codePoint) => program.hasGlyph(codePoint));
    for (const codePoint of held) if (tierOfBmp[codePoint] === OUTSIDE_TIERS) tierOfBmp[codePoint] = tier;
    return { held, font: program.subset(held) };
  });
  const largest = tiers[tiers.length - 1];
  return {
    program,
    tiers: tiers.map((t) => t.font),
    common: largest.font,
    commonCodePoints: largest.held,
    tierOf: (codePoint) => (codePoint < 0x10000 ? tierOfBmp[codePoint] : OUTSIDE_TIERS),
  };
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** In every tier: spaces, dashes, quotes, bullets, ellipsis, per mille, €, ™, minus. */
const PUNCTUATION = [
  ...[0x2009, 0x2013, 0x2014, 0x2018, 0x2019, 0x201a, 0x201c, 0x201d, 0x201e, 0x2020, 0x2021, 0x2022],
  ...[0x2026, 0x202f, 0x2030, 0x2039, 0x203a, 0x20ac, 0x2122, 0x2212],
];

/** French letters outside ASCII, both cases: à â æ ç é è ê ë î ï ô œ ù û ü ÿ. */
const FRENCH_LETTERS = [...'àâæçéèêëîïôœùûüÿ'].flatMap((c) => [c, c.toUpperCase()]).map((c) => c.codePointAt(0)!);

/** Latin-1's symbols an invoice uses: no-break space, £, §, ©, «, ®, °, ², ³, µ, ·, », ×. */
const INVOICE_SYMBOLS = [0xa0, 0xa3, 0xa7, 0xa9, 0xab, 0xae, 0xb0, 0xb2, 0xb3, 0xb5, 0xb7, 0xbb, 0xd7];

/** What each tier adds to the one before it. */
const TIER_ADDITIONS: readonly (readonly number[])[] = [
  // French: what a French invoice shows
  [...range(0x20, 0x7e), ...FRENCH_LETTERS, ...INVOICE_SYMBOLS, ...PUNCTUATION, REPLACEMENT_CHARACTER],
  // Western: Latin-1 (German, Spanish, Italian, Portuguese, Dutch and Nordic names), Œ œ Ÿ
  [...range(0xa0, 0xff), 0x152, 0x153, 0x178],
  // European Latin: Latin Extended-A (Polish, Czech, Hungarian, Baltic names), Romanian Ș ș Ț ț
  [...range(0x100, 0x17f), 0x192, ...range(0x218, 0x21b), 0x2c6, 0x2dc],
];

/**
 * The prepared subsets' characters, each tier holding the one before (its own additions and every
 * smaller tier's, once each). A 10-line French invoice's Factur-X is about 35 KB with the French
 * tier, against 49 KB when every document embedded the European one; a name with another letter
 * moves the document to a larger tier, never to a missing glyph
 * (docs/decisions/0097-font-subsets-in-tiers.md).
 */
const TIERS: readonly (readonly number[])[] = TIER_ADDITIONS.map((_, tier) => [
  ...new Set(TIER_ADDITIONS.slice(0, tier + 1).flat()),
]);

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
