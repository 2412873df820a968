import { createHash } from 'node:crypto';

// "%PDF-1.7" then a comment of four bytes above 127, so that transfers treat the file as binary (PDF/A-3 6.1.2)
const HEADER = Buffer.from([...Buffer.from('%PDF-1.7\n%', 'latin1'), 0xe2, 0xe3, 0xcf, 0xd3, 0x0a]);

/**
 * A PDF file written object by object (ISO 32000-1 §7.5): numbers are reserved first so objects can
 * point at each other, bodies are appended in any order, and `finish` adds the cross-reference
 * table and a trailer whose /ID (required by PDF/A) is the MD5 of what was written (less the streams
 * shared by every document, such as fonts), so the same document always gives the same bytes.
 */
export class PdfFile {
  private readonly chunks: Buffer[] = [HEADER];
  private length = HEADER.length;
  private readonly id = createHash('md5');
  private readonly offsets: number[] = [];
  private count = 0;

  /** A new object number, to refer to before the object is written. */
  reserve(): number {
    this.count += 1;
    return this.count;
  }

  /** Writes `number 0 obj <body> endobj`; the body is ASCII (text goes through `pdfText`). */
  object(number: number, body: string): void {
    this.offsets[number] = this.length;
    this.push(Buffer.from(`${number} 0 obj\n${body}\nendobj\n`, 'latin1'));
  }

  /**
   * Writes a stream object; `entries` are the dictionary entries other than /Length. `shared` data
   * (the same bytes in every document) is left out of the /ID digest.
   */
  stream(number: number, entries: string, data: Buffer, shared = false): void {
    this.offsets[number] = this.length;
    this.push(Buffer.from(`${number} 0 obj\n<< ${entries} /Length ${data.length} >>\nstream\n`, 'latin1'));
    this.push(data, !shared);
    this.push(Buffer.from('\nendstream\nendobj\n', 'latin1'));
  }

  /** The whole file; every reserved number must have been written. */
  finish(root: number): Buffer {
    const hexId = this.id.digest('hex');
    const start = this.length;
    let xref = `xref\n0 ${this.count + 1}\n0000000000 65535 f \n`;
    for (let number = 1; number <= this.count; number++) {
      const offset = this.offsets[number];
      if (offset === undefined) throw new Error(`PDF object ${number} was reserved but never written`);
      xref += `${offset.toString().padStart(10, '0')} 00000 n \n`;
    }
    xref += `trailer\n<< /Size ${this.count + 1} /Root ${root} 0 R /ID [<${hexId}> <${hexId}>] >>\n`;
    xref += `startxref\n${start}\n%%EOF\n`;
    this.push(Buffer.from(xref, 'latin1'), false);
    return Buffer.concat(this.chunks, this.length);
  }

  private push(chunk: Buffer, hashed = true): void {
    if (hashed) this.id.update(chunk);
    this.chunks.push(chunk);
    this.length += chunk.length;
  }
}

/** A PDF text string: literal when printable ASCII, else UTF-16BE with a byte order mark (§7.9.2.2). */
export function pdfText(text: string): string {
  if (/^[\x20-\x7e]*$/.test(text)) return `(${text.replace(/[\\()]/g, '\\$&')})`;
  return `<feff${Buffer.from(text, 'utf16le').swap16().toString('hex')}>`;
}

/** A PDF date (§7.9.4) for midnight UTC of a `YYYY-MM-DD` date. */
export function pdfDate(isoDate: string): string {
  return `(D:${isoDate.replaceAll('-', '')}000000+00'00')`;
}
