import { dictOf, nameOf, type PdfValue, readDict, readObjects } from '../incoming/index.js';

/**
 * Whether untrusted bytes are a PDF a reviewer can open: a `%PDF-` header, a `startxref` at its end,
 * objects that read (the hardened reader of incoming invoices: linear, bounded, object streams
 * included), a catalog and at least one page, and no encryption (an admin must read it without a
 * password). Returns why not, in words that complete "must be a readable PDF: …", or null.
 */
export function pdfProblem(pdf: Buffer): string | null {
  const text = pdf.toString('latin1');
  const header = text.indexOf('%PDF-');
  if (header === -1 || header > 1024) return 'no %PDF- header';
  if (text.lastIndexOf('startxref') < Math.max(0, text.length - 2048))
    return 'it is truncated (no startxref at its end)';
  let objects: ReturnType<typeof readObjects>;
  try {
    objects = readObjects(pdf);
  } catch {
    return 'an object stream is damaged or compressed with an unsupported filter';
  }
  let catalog = false;
  let page = false;
  let encrypted = false;
  for (const object of objects.values()) {
    const dict = dictOf(object);
    if (!dict) continue;
    const type = nameOf(dict.get('Type'));
    if (type === 'Catalog') catalog = true;
    else if (type === 'Page') page = true;
    else if (type === 'XRef' && dict.has('Encrypt')) encrypted = true;
  }
  if (encrypted || trailers(text).some((trailer) => trailer.has('Encrypt'))) {
    return 'it is encrypted (password-protected): send it without protection';
  }
  if (!catalog) return 'it has no catalog';
  if (!page) return 'it has no page';
  return null;
}

/** The dictionaries after each `trailer` keyword (classic cross-reference tables), at most 100. */
function trailers(text: string): Map<string, PdfValue>[] {
  const found: Map<string, PdfValue>[] = [];
  for (let at = text.indexOf('trailer'); at !== -1 && found.length < 100; at = text.indexOf('trailer', at + 7)) {
    found.push(readDict(text, at + 7, Math.min(text.length, at + 7 + 4096)));
  }
  return found;
}
