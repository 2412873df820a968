import type { EmbeddedFont } from './font-program.js';
import { FACES, type FaceName, OUTSIDE_TIERS } from './fonts.js';
import { textWidth } from './text-measure.js';

/** A4 in points (ISO 216: 210 × 297 mm). */
export const PAGE_WIDTH = 595.28;
export const PAGE_HEIGHT = 841.89;

/** An sRGB colour, each component 0..1 (the output intent is sRGB, so DeviceRGB is allowed). */
export type Rgb = readonly [number, number, number];
export const BLACK: Rgb = [0, 0, 0];

/** What a document shows in one face: the first prepared tier holding it all, and what none holds. */
export interface GlyphsShown {
  tier: number;
  outside: Set<number>;
}

export const glyphsShown = (): GlyphsShown => ({ tier: 0, outside: new Set() });

type Op =
  | { kind: 'text'; face: FaceName; size: number; x: number; y: number; text: string; color: Rgb }
  | { kind: 'raw'; content: string };

/**
 * One page's drawing, in layout coordinates (points from the top-left corner). Text is kept as
 * strings until the document's fonts are chosen, then encoded as glyph ids by `contentStream`.
 * Every string must have been through `cleanText`.
 */
export class PageCanvas {
  private readonly ops: Op[] = [];

  constructor(private readonly glyphs: Record<FaceName, GlyphsShown>) {}

  text(x: number, y: number, text: string, face: FaceName, size: number, color: Rgb = BLACK): void {
    if (text === '') return;
    const { tierOf } = FACES[face];
    const shown = this.glyphs[face];
    for (const char of text) {
      const codePoint = char.codePointAt(0)!;
      const tier = tierOf(codePoint);
      if (tier === OUTSIDE_TIERS) shown.outside.add(codePoint);
      else if (tier > shown.tier) shown.tier = tier;
    }
    this.ops.push({ kind: 'text', face, size, x, y: PAGE_HEIGHT - y, text, color });
  }

  /** Text whose right edge is at `right` (amounts in columns). */
  textRight(right: number, y: number, text: string, face: FaceName, size: number, color: Rgb = BLACK): void {
    this.text(right - textWidth(FACES[face].program, text, size), y, text, face, size, color);
  }

  line(x1: number, y1: number, x2: number, y2: number, width: number, color: Rgb): void {
    const [a, b] = [PAGE_HEIGHT - y1, PAGE_HEIGHT - y2];
    this.ops.push({ kind: 'raw', content: `${width} w ${rgb(color)} RG ${n(x1)} ${n(a)} m ${n(x2)} ${n(b)} l S\n` });
  }

  fillRect(x: number, y: number, width: number, height: number, color: Rgb): void {
    const bottom = PAGE_HEIGHT - y - height;
    this.ops.push({ kind: 'raw', content: `${rgb(color)} rg ${n(x)} ${n(bottom)} ${n(width)} ${n(height)} re f\n` });
  }

  /** The page's content stream (ISO 32000-1 §8, §9.4), text shown with fonts /R and /B. */
  contentStream(fonts: Readonly<Record<FaceName, EmbeddedFont>>): string {
    let out = '';
    for (const op of this.ops) {
      if (op.kind === 'raw') {
        out += op.content;
        continue;
      }
      const name = op.face === 'bold' ? 'B' : 'R';
      out += `BT ${rgb(op.color)} rg /${name} ${op.size} Tf ${n(op.x)} ${n(op.y)} Td <${fonts[op.face].hex(op.text)}> Tj ET\n`;
    }
    return out;
  }
}

const n = (value: number): string => (Math.round(value * 100) / 100).toString();
const rgb = (color: Rgb): string => color.map(n).join(' ');
