import { displayedSize, readPdfStructure } from './pdf-structure.js';

export interface PdfInfo {
  /**
   * Each page's visible size in points (its CropBox, else its MediaBox), as displayed (width and
   * height swapped on a page turned a quarter by /Rotate), in document order.
   */
  pages: { width: number; height: number }[];
}

/**
 * The page count and page sizes of a PDF, read from untrusted bytes in linear time. Throws an
 * Error whose message says why for a non-PDF, an encrypted, truncated or otherwise unreadable file.
 */
export function readPdfInfo(pdf: Buffer): PdfInfo {
  const { pages } = readPdfStructure(pdf);
  return { pages: pages.map(displayedSize) };
}
