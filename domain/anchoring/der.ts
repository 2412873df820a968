/**
 * A minimal DER reader that keeps the exact bytes of every element: it reads a TimeStampReq (the
 * built-in authority), a TimeStampResp's status and token (any authority), and the Names the
 * built-in authority copies byte for byte from its certificate. Tokens themselves are verified with
 * PKI.js and asn1js (verify-time-stamp-token.ts).
 */
export interface Der {
  /** The identifier octet (0x30 SEQUENCE, 0x31 SET, 0xa0 [0] constructed, ...). */
  tag: number;
  /** The whole element: identifier, length and contents. */
  bytes: Buffer;
  /** The contents octets only. */
  content: Buffer;
}

export const TAG = {
  BOOLEAN: 0x01,
  INTEGER: 0x02,
  BIT_STRING: 0x03,
  OCTET_STRING: 0x04,
  NULL: 0x05,
  OID: 0x06,
  UTF8_STRING: 0x0c,
  SEQUENCE: 0x30,
  SET: 0x31,
  /** Context-specific constructed [0], [1], ... */
  context: (n: number) => 0xa0 + n,
} as const;

/** Reads the one element at `offset`; throws on anything that is not definite-length DER. */
export function readDer(buf: Buffer, offset = 0): Der {
  if (offset + 2 > buf.length) throw new Error('DER: truncated element');
  const tag = buf[offset];
  if ((tag & 0x1f) === 0x1f) throw new Error('DER: multi-byte tags are not used by RFC 3161');
  let length = buf[offset + 1];
  let header = 2;
  if (length === 0x80) throw new Error('DER: indefinite length is not DER');
  if (length > 0x80) {
    const count = length & 0x7f;
    if (count > 4 || offset + 2 + count > buf.length) throw new Error('DER: bad length');
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + buf[offset + 2 + i];
    header += count;
  }
  const end = offset + header + length;
  if (end > buf.length) throw new Error('DER: element runs past its container');
  return { tag, bytes: buf.subarray(offset, end), content: buf.subarray(offset + header, end) };
}

/** Reads a buffer that must hold exactly one element. */
export function parseDer(buf: Buffer): Der {
  const der = readDer(buf, 0);
  if (der.bytes.length !== buf.length) throw new Error('DER: trailing bytes after the element');
  return der;
}

/** The elements inside a constructed element, in order. */
export function childrenOf(der: Der): Der[] {
  const out: Der[] = [];
  let offset = 0;
  while (offset < der.content.length) {
    const child = readDer(der.content, offset);
    out.push(child);
    offset += child.bytes.length;
  }
  return out;
}

/** The element, checking its tag. */
export function expectTag(der: Der | undefined, tag: number, what: string): Der {
  if (!der || der.tag !== tag) {
    throw new Error(
      `DER: ${what} expected (tag 0x${tag.toString(16)}), got ${der ? `0x${der.tag.toString(16)}` : 'nothing'}`,
    );
  }
  return der;
}

/** Dotted form of an OBJECT IDENTIFIER's contents. */
export function oidOf(der: Der): string {
  expectTag(der, TAG.OID, 'OBJECT IDENTIFIER');
  const bytes = der.content;
  const parts: number[] = [];
  let value = 0;
  for (const byte of bytes) {
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) {
      if (parts.length === 0) {
        const first = value < 80 ? Math.floor(value / 40) : 2;
        parts.push(first, value - first * 40);
      } else parts.push(value);
      value = 0;
    }
  }
  return parts.join('.');
}

/** An INTEGER as a bigint (positive values only are meaningful for serials and nonces). */
export function bigIntOf(der: Der): bigint {
  expectTag(der, TAG.INTEGER, 'INTEGER');
  if (der.content.length === 0) throw new Error('DER: empty INTEGER');
  let value = BigInt(`0x${der.content.toString('hex')}`);
  if (der.content[0] & 0x80) value -= 1n << BigInt(der.content.length * 8);
  return value;
}
