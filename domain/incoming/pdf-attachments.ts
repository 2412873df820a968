import { inflateSync } from 'node:zlib';
import { IncomingParseError } from './parsed-invoice.js';

/**
 * Reads the invoice XML embedded in a Factur-X / ZUGFeRD PDF (PDF/A-3 associated file): finds the
 * file specifications (`/Type /Filespec` with `/EF`) in the document's objects, including those
 * packed in object streams, picks the one named `factur-x.xml` (or a ZUGFeRD / XRechnung name),
 * and decodes its embedded file stream (FlateDecode via node:zlib). No rendering, no JavaScript,
 * no external references: only objects are read.
 */

/** Names Factur-X 1.0 and ZUGFeRD 1/2 give the embedded invoice XML. */
const INVOICE_XML_NAMES = ['factur-x.xml', 'zugferd-invoice.xml', 'xrechnung.xml', 'order-x.xml'];
const MAX_INFLATED = 20 * 1024 * 1024;

interface PdfObject {
  dict: string;
  stream: Buffer | null;
}

/** Every `n g obj … endobj` of the file (the last definition of a number wins, as with updates). */
function readObjects(pdf: Buffer): Map<number, PdfObject> {
  const text = pdf.toString('latin1');
  const objects = new Map<number, PdfObject>();
  const header = /(\d+)\s+(\d+)\s+obj\b/g;
  for (let match = header.exec(text); match; match = header.exec(text)) {
    const start = match.index + match[0].length;
    const end = text.indexOf('endobj', start);
    if (end === -1) break;
    const body = text.slice(start, end);
    const streamAt = body.indexOf('stream');
    let dict = body;
    let stream: Buffer | null = null;
    if (streamAt !== -1 && /^\s*<</.test(body)) {
      dict = body.slice(0, streamAt);
      let dataStart = start + streamAt + 'stream'.length;
      if (text[dataStart] === '\r') dataStart++;
      if (text[dataStart] === '\n') dataStart++;
      const length = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(dict);
      const endStream = text.lastIndexOf('endstream', end);
      const dataEnd = length ? Math.min(dataStart + Number(length[1]), endStream) : endStream;
      stream = pdf.subarray(dataStart, Math.max(dataStart, dataEnd));
    }
    objects.set(Number(match[1]), { dict, stream });
    header.lastIndex = end;
  }
  for (const object of [...objects.values()]) {
    if (/\/Type\s*\/ObjStm\b/.test(object.dict) && object.stream) unpackObjectStream(object, objects);
  }
  return objects;
}

/** PDF 1.5 object streams: `N` pairs of (number, offset) then the objects, from `/First`. */
function unpackObjectStream(container: PdfObject, objects: Map<number, PdfObject>): void {
  const data = decodeStream(container).toString('latin1');
  const first = Number(/\/First\s+(\d+)/.exec(container.dict)?.[1] ?? Number.NaN);
  const count = Number(/\/N\s+(\d+)/.exec(container.dict)?.[1] ?? Number.NaN);
  if (!Number.isFinite(first) || !Number.isFinite(count)) return;
  const pairs = data.slice(0, first).trim().split(/\s+/).map(Number);
  for (let k = 0; k < count; k++) {
    const number = pairs[2 * k];
    const from = first + pairs[2 * k + 1];
    const to = k + 1 < count ? first + pairs[2 * k + 3] : data.length;
    if (!objects.has(number)) objects.set(number, { dict: data.slice(from, to), stream: null });
  }
}

function decodeStream(object: PdfObject): Buffer {
  if (!object.stream) return Buffer.alloc(0);
  if (/\/Filter\s*(\[\s*)?\/FlateDecode/.test(object.dict)) {
    try {
      return inflateSync(object.stream, { maxOutputLength: MAX_INFLATED });
    } catch (err) {
      throw new IncomingParseError(`the PDF's embedded file cannot be decompressed: ${(err as Error).message}`);
    }
  }
  if (/\/Filter/.test(object.dict)) throw new IncomingParseError('the PDF embeds its XML with an unsupported filter');
  return object.stream;
}

/** A PDF string (literal or hex) as text; UTF-16BE with BOM is decoded. */
function pdfString(token: string): string {
  let bytes: Buffer;
  if (token.startsWith('<')) bytes = Buffer.from(token.slice(1, -1).replace(/\s+/g, ''), 'hex');
  else bytes = Buffer.from(token.slice(1, -1).replace(/\\([()\\])/g, '$1'), 'latin1');
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return Buffer.from(bytes.subarray(2)).swap16().toString('utf16le');
  return bytes.toString('latin1');
}

function fileName(dict: string): string | null {
  const match = /\/(?:UF|F)\s*(\((?:\\.|[^\\)])*\)|<[0-9A-Fa-f\s]*>)/.exec(dict);
  return match ? pdfString(match[1]) : null;
}

/** The embedded invoice XML of a Factur-X / ZUGFeRD PDF; throws IncomingParseError when there is none. */
export function extractInvoiceXml(pdf: Buffer): Buffer {
  const objects = readObjects(pdf);
  const candidates: { name: string; ref: number }[] = [];
  for (const object of objects.values()) {
    const ef = /\/EF\s*<<[^>]*?\/(?:UF|F)\s+(\d+)\s+\d+\s+R/.exec(object.dict);
    if (!ef) continue;
    candidates.push({
      name: (fileName(object.dict.replace(/\/EF\s*<<[^>]*>>/, '')) ?? '').toLowerCase(),
      ref: Number(ef[1]),
    });
  }
  const chosen =
    candidates.find((c) => INVOICE_XML_NAMES.includes(c.name)) ?? candidates.find((c) => c.name.endsWith('.xml'));
  if (!chosen)
    throw new IncomingParseError('the PDF embeds no invoice XML (no factur-x.xml attachment): not a Factur-X file');
  const file = objects.get(chosen.ref);
  if (!file?.stream) throw new IncomingParseError(`the PDF's attachment ${chosen.name} has no content`);
  return decodeStream(file);
}
