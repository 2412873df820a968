/** A signature position as the API states it (percent of the page by default, or pixels at 72 dpi). */
export interface SignaturePosition {
  /** 1-based page number. */
  page: number;
  x: number;
  y: number;
  unit?: 'percent' | 'pixel';
  width?: number;
  height?: number;
  /** The page size the pixel coordinates were measured on; the PDF's own size when absent. */
  page_width_px?: number;
  page_height_px?: number;
}

/** A rectangle on a page, in points, from the page box's lower-left corner (PDF's orientation). */
export interface PdfRect {
  /** 1-based page number. */
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The size a signature block takes when the position gives none, in points. */
export const DEFAULT_BLOCK = { width: 180, height: 72 };
const MIN_SIDE = 24;

/**
 * Converts an API position into a rectangle in points. `x`/`y` locate the block's top-left corner
 * from the page's top-left corner (as on a screen); with `percent`, they and `width`/`height` are
 * shares of the page's width and height; with `pixel`, they are pixels at 72 dpi on a page of
 * `page_width_px` × `page_height_px` (the PDF's size when absent), scaled to the real page. The
 * block is then moved and shrunk, if needed, to stay on the page.
 */
export function toPdfRect(position: SignaturePosition, pageSize: { width: number; height: number }): PdfRect {
  const { width: pw, height: ph } = pageSize;
  let left: number;
  let top: number;
  let width: number;
  let height: number;
  if ((position.unit ?? 'percent') === 'percent') {
    left = (position.x / 100) * pw;
    top = (position.y / 100) * ph;
    width = position.width === undefined ? DEFAULT_BLOCK.width : (position.width / 100) * pw;
    height = position.height === undefined ? DEFAULT_BLOCK.height : (position.height / 100) * ph;
  } else {
    const sx = position.page_width_px ? pw / position.page_width_px : 1;
    const sy = position.page_height_px ? ph / position.page_height_px : 1;
    left = position.x * sx;
    top = position.y * sy;
    width = (position.width ?? DEFAULT_BLOCK.width) * sx;
    height = (position.height ?? DEFAULT_BLOCK.height) * sy;
  }
  width = Math.min(Math.max(width, MIN_SIDE), pw);
  height = Math.min(Math.max(height, MIN_SIDE), ph);
  left = Math.min(Math.max(left, 0), pw - width);
  top = Math.min(Math.max(top, 0), ph - height);
  return { page: position.page, x: left, y: ph - top - height, width, height };
}
