/**
 * Reads PDF values (ISO 32000-1 §7.3: numbers, names, strings, arrays, dictionaries, references)
 * from untrusted bytes in one forward pass: every character is looked at a bounded number of
 * times, whatever the input, so a hostile file costs time in proportion to its size. Nesting is
 * bounded, and an unterminated string or dictionary ends at the end of the text instead of being
 * searched for again from each later position.
 */

export type PdfValue =
  | { kind: 'number'; value: number }
  | { kind: 'name'; value: string }
  | { kind: 'string'; bytes: Buffer }
  | { kind: 'ref'; number: number }
  | { kind: 'array'; items: PdfValue[] }
  | { kind: 'dict'; entries: Map<string, PdfValue> }
  | { kind: 'keyword'; value: string };

const MAX_NESTING = 32;
/** File names and dates are short: longer strings are read past, and kept only this long. */
const MAX_STRING = 64 * 1024;
/** Character classes of ISO 32000-1 §7.2.2, by byte: 1 white space, 2 delimiter, 0 regular. */
const CLASS = new Uint8Array(256);
for (const c of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) CLASS[c] = 1;
for (const c of '()<>[]{}/%') CLASS[c.charCodeAt(0)] = 2;
const isWhite = (c: number) => CLASS[c & 0xff] === 1;
const isRegular = (c: number) => CLASS[c & 0xff] === 0;
const ESCAPES: Record<string, number> = { n: 10, r: 13, t: 9, b: 8, f: 12, '(': 40, ')': 41, '\\': 92 };

type Token =
  | { type: '<<' | '>>' | '[' | ']' | 'eof' }
  | { type: 'name'; value: string }
  | { type: 'string'; bytes: Buffer }
  | { type: 'word'; value: string };

/** Tokens of a latin1 text, from `from` to `to`. */
export class PdfLexer {
  private pos: number;
  private readonly peeked: Token[] = [];

  constructor(
    private readonly text: string,
    from = 0,
    private readonly to = text.length,
  ) {
    this.pos = from;
  }

  next(): Token {
    return this.peeked.shift() ?? this.read();
  }

  peek(k = 0): Token {
    while (this.peeked.length <= k) this.peeked.push(this.read());
    return this.peeked[k];
  }

  private read(): Token {
    const { text, to } = this;
    for (;;) {
      while (this.pos < to) {
        const c = text.charCodeAt(this.pos);
        if (isWhite(c)) this.pos++;
        else if (c === 0x25) {
          // A comment runs to the end of its line.
          while (this.pos < to && text[this.pos] !== '\n' && text[this.pos] !== '\r') this.pos++;
        } else break;
      }
      if (this.pos >= to) return { type: 'eof' };
      const start = this.pos;
      const c = text[start];
      if (c === '<' && text[start + 1] === '<') {
        this.pos += 2;
        return { type: '<<' };
      }
      if (c === '>' && text[start + 1] === '>') {
        this.pos += 2;
        return { type: '>>' };
      }
      if (c === '[' || c === ']') {
        this.pos++;
        return { type: c };
      }
      if (c === '(') return { type: 'string', bytes: this.literalString() };
      if (c === '<') return { type: 'string', bytes: this.hexString() };
      if (c === '/') {
        this.pos++;
        while (this.pos < to && isRegular(text.charCodeAt(this.pos))) this.pos++;
        return { type: 'name', value: text.slice(start + 1, this.pos) };
      }
      if (isRegular(text.charCodeAt(start))) {
        while (this.pos < to && isRegular(text.charCodeAt(this.pos))) this.pos++;
        return { type: 'word', value: text.slice(start, this.pos) };
      }
      this.pos++; // a stray delimiter (`)`, `>`, `{`, `}`): skipped
    }
  }

  /**
   * `( … )` with balanced parentheses and backslash escapes (§7.3.4.2). Runs of plain bytes are
   * taken as slices; a string is kept up to MAX_STRING bytes and skipped past beyond.
   */
  private literalString(): Buffer {
    const { text, to } = this;
    const parts: string[] = [];
    let kept = 0;
    const keep = (part: string) => {
      if (kept >= MAX_STRING) return;
      parts.push(part.slice(0, MAX_STRING - kept));
      kept += part.length;
    };
    let depth = 1;
    let run = ++this.pos;
    while (this.pos < to) {
      const c = text.charCodeAt(this.pos);
      if (c === 0x28) depth++;
      else if (c === 0x29) {
        if (--depth === 0) break;
      } else if (c === 0x5c) {
        keep(text.slice(run, this.pos));
        const e = text[++this.pos];
        this.pos++;
        if (e === undefined) break;
        if (e in ESCAPES) keep(String.fromCharCode(ESCAPES[e]));
        else if (e >= '0' && e <= '7') {
          let octal = e;
          while (octal.length < 3 && text[this.pos] >= '0' && text[this.pos] <= '7') octal += text[this.pos++];
          keep(String.fromCharCode(Number.parseInt(octal, 8) & 0xff));
        } else if (e === '\r' && text[this.pos] === '\n') this.pos++;
        run = this.pos;
        continue;
      }
      this.pos++;
    }
    keep(text.slice(run, Math.min(this.pos, to)));
    this.pos++;
    return Buffer.from(parts.join(''), 'latin1');
  }

  /** `< hex digits >`; white space ignored, an odd final digit counts as followed by 0 (§7.3.4.3). */
  private hexString(): Buffer {
    const { text, to } = this;
    const start = ++this.pos;
    while (this.pos < to && text.charCodeAt(this.pos) !== 0x3e) this.pos++;
    let digits = text.slice(start, Math.min(start + 2 * MAX_STRING, this.pos)).replace(/[^0-9A-Fa-f]/g, '');
    this.pos++;
    if (digits.length % 2 === 1) digits += '0';
    return Buffer.from(digits, 'hex');
  }
}

const INTEGER = /^[+-]?\d{1,15}$/;
const REAL = /^[+-]?(\d{1,15}(\.\d{0,15})?|\.\d{1,15})$/;

/** Skips the rest of a too deeply nested array or dictionary without recursing; reads as null. */
function skipNested(lexer: PdfLexer, open: number): null {
  for (let depth = open; depth > 0; ) {
    const token = lexer.next();
    if (token.type === 'eof') break;
    if (token.type === '<<' || token.type === '[') depth++;
    else if (token.type === '>>' || token.type === ']') depth--;
  }
  return null;
}

/** One value; `n g R` is read as a reference. Nesting deeper than MAX_NESTING is cut off. */
export function readValue(lexer: PdfLexer, depth = 0): PdfValue | null {
  const token = lexer.next();
  switch (token.type) {
    case 'eof':
    case '>>':
    case ']':
      return null;
    case 'name':
      return { kind: 'name', value: token.value };
    case 'string':
      return { kind: 'string', bytes: token.bytes };
    case '<<': {
      if (depth >= MAX_NESTING) return skipNested(lexer, 1);
      const entries = new Map<string, PdfValue>();
      for (let key = lexer.next(); key.type !== '>>' && key.type !== 'eof'; key = lexer.next()) {
        if (key.type !== 'name') continue;
        const ahead = lexer.peek().type;
        if (ahead === '>>' || ahead === 'eof') continue;
        const value = readValue(lexer, depth + 1);
        if (value) entries.set(key.value, value);
      }
      return { kind: 'dict', entries };
    }
    case '[': {
      if (depth >= MAX_NESTING) return skipNested(lexer, 1);
      const items: PdfValue[] = [];
      while (lexer.peek().type !== ']' && lexer.peek().type !== 'eof') {
        const value = readValue(lexer, depth + 1);
        if (value) items.push(value);
      }
      lexer.next();
      return { kind: 'array', items };
    }
    case 'word': {
      if (INTEGER.test(token.value)) {
        const generation = lexer.peek(0);
        const r = lexer.peek(1);
        if (generation.type === 'word' && INTEGER.test(generation.value) && r.type === 'word' && r.value === 'R') {
          lexer.next();
          lexer.next();
          return { kind: 'ref', number: Number(token.value) };
        }
        return { kind: 'number', value: Number(token.value) };
      }
      if (REAL.test(token.value)) return { kind: 'number', value: Number(token.value) };
      return { kind: 'keyword', value: token.value };
    }
  }
}

/** The dictionary at the start of a text (an object's body), or an empty one. */
export function readDict(text: string, from = 0, to = text.length): Map<string, PdfValue> {
  const value = readValue(new PdfLexer(text, from, to));
  return value?.kind === 'dict' ? value.entries : new Map();
}

export const nameOf = (value: PdfValue | undefined): string | null => (value?.kind === 'name' ? value.value : null);
export const numberOf = (value: PdfValue | undefined): number | null => (value?.kind === 'number' ? value.value : null);

/** A text string (§7.9.2.2): UTF-16BE with its BOM, else PDFDocEncoding read as Latin-1. */
export function textOf(value: PdfValue | undefined): string | null {
  if (value?.kind !== 'string') return null;
  const bytes = value.bytes;
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    // An odd trailing byte is not half a character anyone can read: dropped.
    const body = Buffer.from(bytes.subarray(2, 2 + ((bytes.length - 2) & ~1)));
    return body.swap16().toString('utf16le');
  }
  return bytes.toString('latin1');
}
