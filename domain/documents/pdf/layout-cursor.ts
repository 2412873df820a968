import { FACES, type FaceName } from './fonts.js';
import { type GlyphsShown, glyphsShown, PAGE_HEIGHT, PAGE_WIDTH, PageCanvas, type Rgb } from './page-canvas.js';
import { cleanText, wrapText } from './text-measure.js';

/** Page geometry of the invoice, in points. */
export const MARGIN_X = 42;
export const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN_X;
export const CONTENT_TOP = 40;
/** Content stops here; the page footer (number, page count) sits below. */
export const CONTENT_BOTTOM = PAGE_HEIGHT - 54;

export const GREY: Rgb = [0.38, 0.38, 0.38];
export const RULE: Rgb = [0.75, 0.75, 0.75];
export const SHADE: Rgb = [0.93, 0.93, 0.93];

/**
 * Where the layout is: the pages so far and the top of the free space on the last one. A section
 * asks for room with `ensure`; a new page runs `onNewPage` (the lines table repeats its header).
 */
export class LayoutCursor {
  readonly pages: PageCanvas[] = [];
  /** Which prepared subset each face needs, and what none holds (the document then gets its own). */
  readonly glyphs: Record<FaceName, GlyphsShown> = { regular: glyphsShown(), bold: glyphsShown() };
  page: PageCanvas;
  y = CONTENT_TOP;
  onNewPage: (() => void) | null = null;

  constructor() {
    this.page = this.addPage();
  }

  get space(): number {
    return CONTENT_BOTTOM - this.y;
  }

  get atPageTop(): boolean {
    return this.y <= CONTENT_TOP;
  }

  newPage(): void {
    this.page = this.addPage();
    this.y = CONTENT_TOP;
    this.onNewPage?.();
  }

  /** Starts a new page unless `height` points are free on this one. */
  ensure(height: number): void {
    if (this.space < height && !this.atPageTop) this.newPage();
  }

  /** Text made printable with a face's glyphs (see `cleanText`), on one line. */
  clean(text: string, face: FaceName = 'regular'): string {
    return cleanText(FACES[face].program, text).replaceAll('\n', ' ');
  }

  /** Text made printable and wrapped to `width`. */
  wrap(text: string, face: FaceName, size: number, width: number): string[] {
    const program = FACES[face].program;
    return wrapText(program, cleanText(program, text), size, width);
  }

  /** Draws one line whose top is at `top` (the baseline sits at the font's ascent below it). */
  line(x: number, top: number, text: string, face: FaceName, size: number, color?: Rgb): void {
    this.page.text(x, baseline(top, size), text, face, size, color);
  }

  lineRight(right: number, top: number, text: string, face: FaceName, size: number, color?: Rgb): void {
    this.page.textRight(right, baseline(top, size), text, face, size, color);
  }

  private addPage(): PageCanvas {
    const page = new PageCanvas(this.glyphs);
    this.pages.push(page);
    return page;
  }
}

// DejaVu Sans's ascent is 0.928 em
const baseline = (top: number, size: number): number => top + size * 0.93;
