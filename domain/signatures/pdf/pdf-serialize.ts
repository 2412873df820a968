import type { PdfValue } from '../../incoming/index.js';

/** A number as PDF writes it: no exponent, at most 4 decimals. */
export function pdfNumber(value: number): string {
  if (Number.isInteger(value)) return String(value);
  return value.toFixed(4).replace(/0+$/, '').replace(/\.$/, '');
}

/**
 * A value read by the lexer, written back as PDF syntax: names keep their `#xx` escapes as read,
 * strings are written in hex (any byte is safe there), references as generation 0.
 */
export function serialize(value: PdfValue): string {
  switch (value.kind) {
    case 'number':
      return pdfNumber(value.value);
    case 'name':
      return `/${value.value}`;
    case 'string':
      return `<${value.bytes.toString('hex')}>`;
    case 'ref':
      return `${value.number} 0 R`;
    case 'keyword':
      return value.value;
    case 'array':
      return `[${value.items.map(serialize).join(' ')}]`;
    case 'dict':
      return serializeDict(value.entries);
  }
}

export function serializeDict(entries: Map<string, PdfValue>): string {
  return `<< ${[...entries].map(([key, v]) => `/${key} ${serialize(v)}`).join(' ')} >>`;
}

/** A PDF text string: literal when printable ASCII, else UTF-16BE with a byte order mark (§7.9.2.2). */
export function pdfText(text: string): string {
  if (/^[\x20-\x7e]*$/.test(text)) return `(${text.replace(/[\\()]/g, '\\$&')})`;
  return `<feff${Buffer.from(text, 'utf16le').swap16().toString('hex')}>`;
}

/** A PDF date (§7.9.4), in UTC. */
export function pdfDate(date: Date): string {
  const iso = date.toISOString();
  return `(D:${iso.slice(0, 19).replace(/[-T:]/g, '')}+00'00')`;
}
