import { cleanText, type EmbeddedFont, FACES, type FaceName, textWidth } from '../../documents/index.js';
import { pdfNumber } from './pdf-serialize.js';

/**
 * The fonts of the signature blocks: the project's DejaVu Sans (regular and bold), subset to the
 * characters the blocks of one document show, so any European name (Latin, Greek, Cyrillic) is
 * drawn and extractable, and the signed file grows by a few kilobytes only.
 */
export class BlockFonts {
  private readonly used: Record<FaceName, Set<number>> = { regular: new Set(), bold: new Set() };
  private subsets: Record<FaceName, EmbeddedFont> | null = null;

  /** The text as the font can show it (unknown characters as U+FFFD), its characters noted for the subset. */
  prepare(face: FaceName, text: string): string {
    const clean = cleanText(FACES[face].program, text).replace(/\n/g, ' ');
    for (const char of clean) this.used[face].add(char.codePointAt(0) as number);
    return clean;
  }

  /** The subsets, made once every text is prepared. */
  embedded(): Record<FaceName, EmbeddedFont> {
    this.subsets ??= {
      regular: FACES.regular.program.subset(this.used.regular),
      bold: FACES.bold.program.subset(this.used.bold),
    };
    return this.subsets;
  }

  width(face: FaceName, text: string, size: number): number {
    return textWidth(FACES[face].program, text, size);
  }

  /** The text as a hex string of CIDs, for `Tj` with the Identity-H encoding. */
  hex(face: FaceName, text: string): string {
    return `<${this.embedded()[face].hex(text)}>`;
  }
}

/** A block's texts, each prepared with BlockFonts. */
export interface BlockText {
  name: string;
  /** The name in the regular face, for a typed signature. */
  typed: string;
  signedLine: string;
  date: string;
}

export const SIGNED_LINE = 'Signé électroniquement';
/** A slant of about 12°, for the typed name: the font has no italic. */
const SLANT = 0.21;

/**
 * The content stream of a signature block of `width` × `height` points: a thin frame; the drawn
 * signature (as /Im0, scaled into the upper part, its proportions kept) or the typed name slanted;
 * then three lines: the signer's name in bold, "Signé électroniquement", the date. Resources: /R
 * (regular) and /B (bold). Each line is shrunk until it fits the block's width.
 */
export function appearanceContent(
  width: number,
  height: number,
  text: BlockText,
  fonts: BlockFonts,
  drawn: { width: number; height: number } | null,
): string {
  const pad = Math.min(4, width / 20, height / 20);
  const inner = width - 2 * pad;
  const size = Math.max(3, Math.min(9, height * 0.13));
  const leading = size * 1.2;
  const ops: string[] = [
    `q 0.55 0.55 0.6 RG 0.5 w 0.25 0.25 ${pdfNumber(width - 0.5)} ${pdfNumber(height - 0.5)} re S Q`,
  ];
  const line = (face: FaceName, wanted: number, y: number, value: string, slant = 0) => {
    const natural = fonts.width(face, value, wanted);
    const fitted = Math.max(2, natural > inner ? (wanted * inner) / natural : wanted);
    const tm = `1 0 ${slant} 1 ${pdfNumber(pad)} ${pdfNumber(y)} Tm`;
    ops.push(
      `BT /${face === 'bold' ? 'B' : 'R'} ${pdfNumber(fitted)} Tf 0.1 0.1 0.15 rg ${tm} ${fonts.hex(face, value)} Tj ET`,
    );
  };
  line('regular', size * 0.9, pad + 0.2 * leading, text.date);
  line('regular', size * 0.9, pad + 1.2 * leading, text.signedLine);
  line('bold', size, pad + 2.2 * leading, text.name);
  const areaBottom = pad + 3.3 * leading;
  const areaHeight = height - pad - areaBottom;
  if (areaHeight > 4) {
    if (drawn) {
      const scale = Math.min(inner / drawn.width, areaHeight / drawn.height);
      const w = drawn.width * scale;
      const h = drawn.height * scale;
      ops.push(`q ${pdfNumber(w)} 0 0 ${pdfNumber(h)} ${pdfNumber(pad)} ${pdfNumber(areaBottom)} cm /Im0 Do Q`);
    } else line('regular', areaHeight * 0.7, areaBottom + areaHeight * 0.2, text.typed, SLANT);
  }
  return ops.join('\n');
}
