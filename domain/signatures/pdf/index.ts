/**
 * The PDF engine of signatures. This minimal reader is a stand-in until the full engine (stamping,
 * PAdES, the proof file) lands here with the same `readPdfInfo` signature.
 */

export interface PdfInfo {
  /** Each page's size in PDF points (1/72 inch), in document order. */
  pages: { width: number; height: number }[];
}

const A4 = { width: 595, height: 842 };

/**
 * The pages of a PDF and their sizes, from its page tree (Catalog → Pages → Kids; MediaBox
 * inherited down the tree, A4 when none is given). Throws an Error saying why on a file that is
 * not a PDF, is encrypted, or whose page tree cannot be read.
 */
export function readPdfInfo(pdf: Buffer): PdfInfo {
  const head = pdf.subarray(0, 1024).toString('latin1');
  if (!head.includes('%PDF-')) throw new Error('is not a PDF file (no %PDF- header)');
  const text = pdf.toString('latin1');
  if (!text.slice(-2048).includes('%%EOF')) throw new Error('is not a complete PDF file (no %%EOF marker)');
  const objects = readObjects(text);
  const trailer = readTrailer(text, objects);
  if (/\/Encrypt\b/.test(trailer)) throw new Error('is an encrypted PDF: send it without a password');
  const rootRef = /\/Root\s+(\d+)\s+\d+\s+R/.exec(trailer)?.[1];
  const catalog = rootRef ? objects.get(Number(rootRef)) : findByType(objects, 'Catalog');
  const pagesRef = catalog ? /\/Pages\s+(\d+)\s+\d+\s+R/.exec(catalog)?.[1] : undefined;
  if (!pagesRef) throw new Error('is a PDF whose page tree cannot be read');
  const pages: PdfInfo['pages'] = [];
  walk(objects, Number(pagesRef), undefined, pages, new Set());
  if (pages.length === 0) throw new Error('is a PDF without pages');
  return { pages };
}

/** Every `n g obj … endobj` dictionary of the file (stream bodies cut off), by object number. */
function readObjects(text: string): Map<number, string> {
  const objects = new Map<number, string>();
  const pattern = /(\d+)\s+\d+\s+obj\b/g;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const start = match.index + match[0].length;
    const end = text.indexOf('endobj', start);
    if (end < 0) break;
    let body = text.slice(start, end);
    const stream = body.search(/\bstream\r?\n/);
    if (stream >= 0) body = body.slice(0, stream);
    objects.set(Number(match[1]), body);
    pattern.lastIndex = end;
  }
  return objects;
}

/** The classic trailer dictionary, or the cross-reference stream's dictionary (PDF 1.5). */
function readTrailer(text: string, objects: Map<number, string>): string {
  const at = text.lastIndexOf('trailer');
  if (at >= 0) return text.slice(at, text.indexOf('>>', at) + 2);
  for (const body of objects.values()) if (/\/Type\s*\/XRef\b/.test(body)) return body;
  return '';
}

function findByType(objects: Map<number, string>, type: string): string | undefined {
  const pattern = new RegExp(`/Type\\s*/${type}\\b`);
  for (const body of objects.values()) if (pattern.test(body)) return body;
  return undefined;
}

function mediaBoxOf(body: string): { width: number; height: number } | undefined {
  const m = /\/MediaBox\s*\[\s*(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s*\]/.exec(body);
  if (!m) return undefined;
  const [x0, y0, x1, y1] = m.slice(1).map(Number);
  const size = { width: Math.abs(x1 - x0), height: Math.abs(y1 - y0) };
  return size.width > 0 && size.height > 0 ? size : undefined;
}

function walk(
  objects: Map<number, string>,
  ref: number,
  inherited: { width: number; height: number } | undefined,
  pages: PdfInfo['pages'],
  seen: Set<number>,
): void {
  if (seen.has(ref)) throw new Error('is a PDF whose page tree loops');
  seen.add(ref);
  const body = objects.get(ref);
  if (body === undefined) throw new Error('is a PDF whose page tree cannot be read (compressed or missing objects)');
  const box = mediaBoxOf(body) ?? inherited;
  const kids = /\/Kids\s*\[([^\]]*)\]/.exec(body)?.[1];
  if (/\/Type\s*\/Pages\b/.test(body) && kids !== undefined) {
    for (const kid of kids.matchAll(/(\d+)\s+\d+\s+R/g)) walk(objects, Number(kid[1]), box, pages, seen);
    return;
  }
  if (!/\/Type\s*\/Page\b/.test(body)) throw new Error('is a PDF whose page tree cannot be read');
  pages.push(box ?? A4);
}
