import { inflateSync } from 'node:zlib';
import { IncomingParseError } from './parsed-invoice.js';
import { nameOf, numberOf, PdfLexer, type PdfValue, readValue } from './pdf-lexer.js';

/**
 * The objects of a PDF, read from untrusted bytes in time proportional to their size. Every
 * keyword (`obj`, `endobj`, `stream`, `endstream`) is located by a forward-only cursor, so no
 * byte is searched twice however many unterminated objects or streams a file holds; every count
 * or offset the file states (`/N`, `/First`, `/Length`, object-stream offsets) is checked against
 * the bytes actually there before it is used; and decompression has one budget for the whole file.
 */

export interface PdfObject {
  /** The object's value: its dictionary for a stream, else whatever it holds (a number for a length). */
  value: PdfValue | null;
  stream: Buffer | null;
}

/** Per stream, and for the whole file: a 10 MB file may not make the parser hold more than this. */
const MAX_INFLATED = 20 * 1024 * 1024;
const MAX_INFLATED_TOTAL = 64 * 1024 * 1024;

/** The next occurrence of a keyword at or after a position, for positions that only grow. */
class KeywordCursor {
  private from = -1;
  private found = -1;
  constructor(
    private readonly text: string,
    private readonly keyword: string,
  ) {}

  next(from: number): number {
    if (from < this.from) throw new Error('KeywordCursor positions must not go back');
    const exhausted = this.from !== -1 && this.found === -1;
    this.from = from;
    if (exhausted || (this.found !== -1 && this.found >= from)) return this.found;
    this.found = this.text.indexOf(this.keyword, from);
    return this.found;
  }
}

const isSpace = (c: string | undefined) =>
  c === ' ' || c === '\n' || c === '\r' || c === '\t' || c === '\f' || c === '\0';
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/** The object number of the `n g obj` header whose `obj` is at `at`, or null; looks back a bounded distance. */
function headerNumber(text: string, at: number): number | null {
  const after = text[at + 3];
  if (after !== undefined && !isSpace(after) && !'<[(/%'.includes(after)) return null;
  let i = at - 1;
  const skip = (test: (c: string | undefined) => boolean, max: number) => {
    const from = i;
    while (i >= 0 && from - i < max && test(text[i])) i--;
    return from - i;
  };
  if (skip(isSpace, 16) === 0) return null;
  if (skip(isDigit, 6) === 0) return null;
  if (skip(isSpace, 16) === 0) return null;
  const digits = skip(isDigit, 11);
  if (digits === 0 || digits > 10 || (i >= 0 && !isSpace(text[i]) && !'>])'.includes(text[i]))) return null;
  return Number(text.slice(i + 1, i + 1 + digits));
}

/** Past the end-of-line that follows the `stream` keyword (CRLF or LF; a lone CR is tolerated). */
function dataStartAfter(text: string, keywordAt: number): number {
  let at = keywordAt + 'stream'.length;
  if (text[at] === '\r') at++;
  if (text[at] === '\n') at++;
  return at;
}

/** The data's end when `endstream` is at `keywordAt`: the end-of-line before it is not data. */
function dataEndBefore(text: string, keywordAt: number, dataStart: number): number {
  let at = keywordAt;
  if (at > dataStart && text[at - 1] === '\n') at--;
  if (at > dataStart && text[at - 1] === '\r') at--;
  return at;
}

/** Whether `endstream` follows `at`, after at most a few bytes of white space: a stated length is right. */
function endstreamFollows(text: string, at: number): boolean {
  let i = at;
  while (i < text.length && i - at < 4 && isSpace(text[i])) i++;
  return text.startsWith('endstream', i);
}

interface StreamSpan {
  dataStart: number;
  /** Where the `endstream` keyword says the data ends (null: not looked up). */
  keywordEnd: number | null;
  lengthRef: number | null;
}

/** Every `n g obj … endobj` of the file (the last definition of a number wins, as with updates). */
export function readObjects(pdf: Buffer): Map<number, PdfObject> {
  const text = pdf.toString('latin1');
  const objects = new Map<number, PdfObject>();
  const spans = new Map<number, StreamSpan>();
  const obj = new KeywordCursor(text, 'obj');
  const endobj = new KeywordCursor(text, 'endobj');
  const stream = new KeywordCursor(text, 'stream');
  const endstream = new KeywordCursor(text, 'endstream');
  let pos = 0;
  while (pos < text.length) {
    const at = obj.next(pos);
    if (at === -1) break;
    pos = at + 3;
    const number = headerNumber(text, at);
    if (number === null) continue;
    const start = at + 3;
    let end = endobj.next(start);
    const streamAt = stream.next(start);
    const lexer = new PdfLexer(text, start, streamAt !== -1 && (end === -1 || streamAt < end) ? streamAt : end);
    const value = readValue(lexer);
    if (streamAt !== -1 && (end === -1 || streamAt < end) && value?.kind === 'dict') {
      const dataStart = dataStartAfter(text, streamAt);
      const length = value.entries.get('Length');
      const stated = numberOf(length);
      let dataEnd: number;
      let keywordEnd: number | null = null;
      if (
        stated !== null &&
        stated >= 0 &&
        dataStart + stated <= text.length &&
        endstreamFollows(text, dataStart + stated)
      ) {
        dataEnd = dataStart + stated;
      } else {
        const keywordAt = endstream.next(dataStart);
        if (keywordAt === -1) break; // an unterminated stream: everything after it is its data
        dataEnd = keywordEnd = dataEndBefore(text, keywordAt, dataStart);
      }
      spans.set(number, { dataStart, keywordEnd, lengthRef: length?.kind === 'ref' ? length.number : null });
      objects.set(number, { value, stream: pdf.subarray(dataStart, dataEnd) });
      end = endobj.next(dataEnd);
    } else {
      objects.set(number, { value, stream: null });
    }
    if (end === -1) break;
    pos = Math.max(pos, end + 'endobj'.length);
  }
  resolveIndirectLengths(pdf, text, objects, spans);
  const budget = { remaining: MAX_INFLATED_TOTAL };
  for (const object of [...objects.values()]) {
    if (nameOf(dictOf(object)?.get('Type')) === 'ObjStm' && object.stream) unpackObjectStream(object, objects, budget);
  }
  // Once more: a length may also be an object packed in an object stream.
  resolveIndirectLengths(pdf, text, objects, spans);
  return objects;
}

/**
 * `/Length 12 0 R` (a length written after its stream, as many producers do): the referenced
 * number is used when it is an integer that ends the data right before `endstream`; otherwise the
 * keyword's position, already found, stands.
 */
function resolveIndirectLengths(
  pdf: Buffer,
  text: string,
  objects: Map<number, PdfObject>,
  spans: Map<number, StreamSpan>,
): void {
  for (const [number, span] of spans) {
    if (span.lengthRef === null || span.keywordEnd === null) continue;
    const length = numberOf(objects.get(span.lengthRef)?.value ?? undefined);
    if (length === null || !Number.isInteger(length) || length < 0) continue;
    const dataEnd = span.dataStart + length;
    if (dataEnd > text.length || !endstreamFollows(text, dataEnd)) continue;
    const object = objects.get(number);
    if (object) object.stream = pdf.subarray(span.dataStart, dataEnd);
  }
}

export const dictOf = (object: PdfObject | undefined): Map<string, PdfValue> | null =>
  object?.value?.kind === 'dict' ? object.value.entries : null;

/**
 * PDF 1.5 object streams (§7.5.7): `/N` pairs of (number, offset) then the objects, from `/First`.
 * `/N` is only an upper bound: the pairs read are those actually present, offsets must grow and
 * stay inside the data, so the objects read never overlap and never outnumber the bytes.
 */
function unpackObjectStream(
  container: PdfObject,
  objects: Map<number, PdfObject>,
  budget: { remaining: number },
): void {
  const dict = dictOf(container);
  const data = decodeStream(container, budget).toString('latin1');
  const first = numberOf(dict?.get('First'));
  const count = numberOf(dict?.get('N'));
  if (first === null || count === null || !Number.isInteger(first) || first < 0 || first > data.length) return;
  const header = new PdfLexer(data, 0, first);
  const pairs: { number: number; offset: number }[] = [];
  while (pairs.length < count) {
    const number = header.next();
    const offset = header.next();
    if (number.type !== 'word' || offset.type !== 'word') break;
    const pair = { number: Number(number.value), offset: Number(offset.value) };
    const previous = pairs.length ? pairs[pairs.length - 1].offset : 0;
    if (!Number.isInteger(pair.number) || !Number.isInteger(pair.offset)) break;
    if (pair.offset < previous || first + pair.offset > data.length) break;
    pairs.push(pair);
  }
  pairs.forEach((pair, k) => {
    if (objects.has(pair.number)) return;
    const from = first + pair.offset;
    const to = k + 1 < pairs.length ? first + pairs[k + 1].offset : data.length;
    objects.set(pair.number, { value: readValue(new PdfLexer(data, from, to)), stream: null });
  });
}

/** A stream's bytes, inflated when FlateDecode, within the file's decompression budget. */
export function decodeStream(object: PdfObject, budget: { remaining: number }): Buffer {
  if (!object.stream) return Buffer.alloc(0);
  const filter = dictOf(object)?.get('Filter');
  const filters = filter?.kind === 'array' ? filter.items.map((item) => nameOf(item)) : filter ? [nameOf(filter)] : [];
  if (filters.length === 0) return object.stream;
  if (filters.length > 1 || filters[0] !== 'FlateDecode')
    throw new IncomingParseError('the PDF embeds its XML with an unsupported filter');
  const limit = Math.min(MAX_INFLATED, budget.remaining);
  let inflated: Buffer;
  try {
    inflated = inflateSync(object.stream, { maxOutputLength: Math.max(1, limit) });
  } catch (err) {
    throw new IncomingParseError(`the PDF's embedded file cannot be decompressed: ${(err as Error).message}`);
  }
  budget.remaining -= inflated.length;
  return inflated;
}
