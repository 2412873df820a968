import { dictOf, numberOf, type PdfObject, type PdfValue, readDict, readObjects } from '../../incoming/index.js';

/** A page's box in points: lower-left and upper-right corners, in the page's own coordinates. */
export interface PageBox {
  left: number;
  bottom: number;
  width: number;
  height: number;
}

export interface PdfPage {
  /** The page object's number. */
  ref: number;
  dict: Map<string, PdfValue>;
  box: PageBox;
  /** The page's resources, its own or inherited from the page tree (§7.7.3.4). */
  resources: PdfValue | undefined;
  /** Clockwise rotation when displayed (/Rotate, inheritable): 0, 90, 180 or 270. */
  rotate: 0 | 90 | 180 | 270;
}

/** What an incremental update needs of a PDF: its last trailer, where its last xref is, its objects and pages. */
export interface PdfStructure {
  objects: Map<number, PdfObject>;
  trailer: Map<string, PdfValue>;
  /** Whether the last cross-reference section is a table or a stream (PDF 1.5+): an update writes the same kind. */
  xrefKind: 'table' | 'stream';
  /** The offset `startxref` states: an update's /Prev. */
  startxref: number;
  /** The next free object number. */
  size: number;
  root: number;
  pages: PdfPage[];
}

/** No document sent for signature has that many pages; a page tree that claims more is refused. */
const MAX_PAGES = 10_000;
/** ISO 32000-1 Annex C: the largest object number a reader is expected to handle. */
const MAX_OBJECTS = 8_388_607;
/** An object header `n g obj` with g > 0; every part bounded, so the scan stays linear. */
const REUSED_NUMBER = /(?:^|[\s>\])])\d{1,10}[ \t\r\n]{1,4}0{0,5}[1-9]\d{0,4}[ \t\r\n]{1,4}obj\b/;
/** A4, in points: the box of a page whose tree states none. */
const A4: PageBox = { left: 0, bottom: 0, width: 595, height: 842 };

/**
 * Reads a PDF's structure from untrusted bytes: the last trailer (through `startxref`, with a
 * fallback on the last `trailer` keyword or cross-reference stream when the offset is wrong), the
 * objects (pdf-objects.ts, linear and bounded, object streams included), then the page tree from
 * the catalog, iteratively and visiting each node once, with inherited MediaBox and CropBox.
 * Throws an Error with a message a caller can show for a non-PDF, an encrypted or unreadable file.
 */
export function readPdfStructure(pdf: Buffer): PdfStructure {
  if (!Buffer.isBuffer(pdf) || pdf.length < 8) throw new Error('the document is not a PDF (too short)');
  const text = pdf.toString('latin1');
  const header = text.indexOf('%PDF-');
  if (header === -1 || header > 1024) throw new Error('the document is not a PDF (no %PDF- header)');
  const tail = Math.max(0, text.length - 2048);
  const startAt = text.lastIndexOf('startxref');
  if (startAt < tail) throw new Error('the PDF is truncated or damaged: no startxref at its end');
  const startxref = Number(/^startxref\s+(\d{1,12})/.exec(text.slice(startAt, startAt + 40))?.[1] ?? Number.NaN);
  if (!Number.isSafeInteger(startxref)) throw new Error('the PDF is damaged: its startxref offset is unreadable');

  let found = trailerAt(text, startxref);
  // Encryption is seen in the trailer, before any object is read (their strings and streams would be noise).
  if (found?.trailer.has('Encrypt')) throw encrypted();
  let objects: Map<number, PdfObject>;
  try {
    objects = readObjects(pdf);
  } catch {
    // The reader only throws on object streams it cannot decompress (a filter other than Flate, or damaged data).
    throw new Error('the PDF cannot be read: an object stream is damaged or compressed with an unsupported filter');
  }
  found ??= fallbackTrailer(text, objects);
  if (!found) throw new Error('the PDF is damaged: no trailer found');
  const { trailer, xrefKind } = found;
  if (trailer.has('Encrypt')) throw encrypted();
  const rootValue = trailer.get('Root');
  if (rootValue?.kind !== 'ref' || !dictOf(objects.get(rootValue.number)))
    throw new Error('the PDF is damaged: its catalog is missing');
  let size = numberOf(trailer.get('Size')) ?? 0;
  for (const number of objects.keys()) size = Math.max(size, number + 1);
  if (!Number.isInteger(size) || size > MAX_OBJECTS)
    throw new Error('the PDF is damaged: its object count is out of range');
  // The reader keeps object numbers only; an update rewriting pages and the catalog writes generation 0.
  if (REUSED_NUMBER.test(text))
    throw new Error(
      'the PDF reuses object numbers (a generation above 0), which cannot be signed: save it again as a new PDF',
    );
  const pages = readPages(objects, rootValue.number);
  if (pages.length === 0) throw new Error('the PDF has no page');
  return { objects, trailer, xrefKind, startxref, size, root: rootValue.number, pages };
}

const encrypted = () => new Error('the PDF is encrypted (password-protected): send it without protection');

interface FoundTrailer {
  trailer: Map<string, PdfValue>;
  xrefKind: 'table' | 'stream';
}

/** The trailer of the cross-reference section at `offset`: a table's `trailer` dictionary, or an XRef stream's. */
function trailerAt(text: string, offset: number): FoundTrailer | null {
  if (offset >= text.length) return null;
  if (text.startsWith('xref', offset)) {
    const at = text.indexOf('trailer', offset);
    if (at === -1) return null;
    const trailer = readDict(text, at + 'trailer'.length);
    return trailer.has('Root') ? { trailer, xrefKind: 'table' } : null;
  }
  const header = /^\d{1,10}\s+\d{1,5}\s+obj/.exec(text.slice(offset, offset + 32));
  if (!header) return null;
  const trailer = readDict(text, offset + header[0].length, Math.min(text.length, offset + 64 * 1024));
  if (trailer.get('Type')?.kind !== 'name' || (trailer.get('Type') as { value: string }).value !== 'XRef') return null;
  return trailer.has('Root') ? { trailer, xrefKind: 'stream' } : null;
}

/** When `startxref` points nowhere useful: the last `trailer` keyword, else the last XRef stream that names a catalog. */
function fallbackTrailer(text: string, objects: Map<number, PdfObject>): FoundTrailer | null {
  const at = text.lastIndexOf('trailer');
  if (at !== -1) {
    const trailer = readDict(text, at + 'trailer'.length);
    if (trailer.has('Root')) return { trailer, xrefKind: 'table' };
  }
  let last: FoundTrailer | null = null;
  for (const object of objects.values()) {
    const dict = dictOf(object);
    const type = dict?.get('Type');
    if (dict && type?.kind === 'name' && type.value === 'XRef' && dict.has('Root'))
      last = { trailer: dict, xrefKind: 'stream' };
  }
  return last;
}

/** The value itself, or the object a reference points to (one level: a page tree is not made of chains of references). */
export function resolve(objects: Map<number, PdfObject>, value: PdfValue | undefined): PdfValue | undefined {
  if (value?.kind !== 'ref') return value;
  return objects.get(value.number)?.value ?? undefined;
}

function boxOf(objects: Map<number, PdfObject>, value: PdfValue | undefined): PageBox | null {
  const array = resolve(objects, value);
  if (array?.kind !== 'array' || array.items.length !== 4) return null;
  const n = array.items.map((item) => numberOf(resolve(objects, item)));
  if (n.some((v) => v === null || !Number.isFinite(v))) return null;
  const [x1, y1, x2, y2] = n as number[];
  const width = Math.abs(x2 - x1);
  const height = Math.abs(y2 - y1);
  if (width < 1 || height < 1 || width > 200_000 || height > 200_000) return null;
  return { left: Math.min(x1, x2), bottom: Math.min(y1, y2), width, height };
}

/**
 * The pages in document order, by a depth-first walk with an explicit stack; each node is visited
 * once (a tree that loops back is read once), so the walk is linear in the number of objects.
 * A page's box is its CropBox when it has a valid one, else its MediaBox, each inherited from the
 * nearest ancestor that states it (ISO 32000-1 §7.7.3.4), as are its resources and rotation.
 */
function readPages(objects: Map<number, PdfObject>, root: number): PdfPage[] {
  const catalog = dictOf(objects.get(root));
  const top = catalog?.get('Pages');
  if (top?.kind !== 'ref') throw new Error('the PDF is damaged: its catalog has no page tree');
  const pages: PdfPage[] = [];
  const seen = new Set<number>();
  type Inherited = {
    media: PdfValue | undefined;
    crop: PdfValue | undefined;
    resources: PdfValue | undefined;
    rotate: PdfValue | undefined;
  };
  const stack: { ref: number; inherited: Inherited }[] = [
    { ref: top.number, inherited: { media: undefined, crop: undefined, resources: undefined, rotate: undefined } },
  ];
  while (stack.length > 0) {
    const { ref, inherited } = stack.pop() as { ref: number; inherited: Inherited };
    if (seen.has(ref)) continue;
    seen.add(ref);
    const dict = dictOf(objects.get(ref));
    if (!dict) continue;
    const here = {
      media: dict.get('MediaBox') ?? inherited.media,
      crop: dict.get('CropBox') ?? inherited.crop,
      resources: dict.get('Resources') ?? inherited.resources,
      rotate: dict.get('Rotate') ?? inherited.rotate,
    };
    const kids = resolve(objects, dict.get('Kids'));
    const type = dict.get('Type');
    const isPage = type?.kind === 'name' ? type.value === 'Page' : kids?.kind !== 'array';
    if (isPage) {
      if (pages.length >= MAX_PAGES) throw new Error(`the PDF has more than ${MAX_PAGES} pages`);
      const media = boxOf(objects, here.media) ?? A4;
      const rotate = numberOf(resolve(objects, here.rotate)) ?? 0;
      pages.push({
        ref,
        dict,
        box: boxOf(objects, here.crop) ?? media,
        resources: here.resources,
        rotate: Number.isInteger(rotate / 90) ? ((((rotate % 360) + 360) % 360) as 0 | 90 | 180 | 270) : 0,
      });
      continue;
    }
    if (kids?.kind !== 'array') continue;
    for (let i = kids.items.length - 1; i >= 0; i--) {
      const kid = kids.items[i];
      if (kid.kind === 'ref' && !seen.has(kid.number)) stack.push({ ref: kid.number, inherited: here });
    }
  }
  return pages;
}

/** The page's size as displayed: width and height swapped when it is turned a quarter. */
export function displayedSize(page: PdfPage): { width: number; height: number } {
  const { width, height } = page.box;
  return page.rotate === 90 || page.rotate === 270 ? { width: height, height: width } : { width, height };
}

/**
 * The matrix (`a b c d e f`) that draws something upright at (x, y) of the displayed page (from its
 * lower-left corner, in points) in the page's own coordinates, whatever its /Rotate.
 */
export function displayedToUser(page: PdfPage, x: number, y: number): number[] {
  const { left, bottom, width: w, height: h } = page.box;
  switch (page.rotate) {
    case 90:
      return [0, 1, -1, 0, left + w - y, bottom + x];
    case 180:
      return [-1, 0, 0, -1, left + w - x, bottom + h - y];
    case 270:
      return [0, -1, 1, 0, left + y, bottom + h - x];
    default:
      return [1, 0, 0, 1, left + x, bottom + y];
  }
}
