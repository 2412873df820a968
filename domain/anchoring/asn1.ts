import forge from 'node-forge';

const { asn1 } = forge;
type Asn1 = forge.asn1.Asn1;

/** Object identifiers of RFC 3161, RFC 5652 (CMS), RFC 5816 (ESSCertIDv2) and the hashes used. */
export const OID = {
  sha1: '1.3.14.3.2.26',
  sha256: '2.16.840.1.101.3.4.2.1',
  sha384: '2.16.840.1.101.3.4.2.2',
  sha512: '2.16.840.1.101.3.4.2.3',
  rsaEncryption: '1.2.840.113549.1.1.1',
  sha256WithRSAEncryption: '1.2.840.113549.1.1.11',
  signedData: '1.2.840.113549.1.7.2',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  signingCertificate: '1.2.840.113549.1.9.16.2.12',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  timeStamping: '1.3.6.1.5.5.7.3.8',
  extKeyUsage: '2.5.29.37',
  subjectKeyIdentifier: '2.5.29.14',
  rsassaPss: '1.2.840.113549.1.1.10',
  mgf1: '1.2.840.113549.1.1.8',
} as const;

/** Node's names for the digests a time-stamp may use. */
export const HASH_NAMES: Record<string, 'sha1' | 'sha256' | 'sha384' | 'sha512'> = {
  [OID.sha1]: 'sha1',
  [OID.sha256]: 'sha256',
  [OID.sha384]: 'sha384',
  [OID.sha512]: 'sha512',
};

const U = asn1.Class.UNIVERSAL;
const binary = (buf: Buffer) => buf.toString('binary');

export const seq = (items: Asn1[]): Asn1 => asn1.create(U, asn1.Type.SEQUENCE, true, items);
export const set = (items: Asn1[]): Asn1 => asn1.create(U, asn1.Type.SET, true, items);
export const oid = (dotted: string): Asn1 => asn1.create(U, asn1.Type.OID, false, asn1.oidToDer(dotted).getBytes());
export const nullValue = (): Asn1 => asn1.create(U, asn1.Type.NULL, false, '');
export const octets = (buf: Buffer): Asn1 => asn1.create(U, asn1.Type.OCTETSTRING, false, binary(buf));
export const bool = (value: boolean): Asn1 => asn1.create(U, asn1.Type.BOOLEAN, false, value ? '\xff' : '\x00');
export const utf8 = (text: string): Asn1 => asn1.create(U, asn1.Type.UTF8, false, forge.util.encodeUtf8(text));
/** `[n]` constructed (EXPLICIT tagging, or IMPLICIT over a constructed type). */
export const context = (n: number, items: Asn1[]): Asn1 => asn1.create(asn1.Class.CONTEXT_SPECIFIC, n, true, items);
/** One DER element from its tag and already-encoded contents: exact bytes, never re-encoded. */
export function tlv(tag: number, ...contents: Buffer[]): Buffer {
  const content = Buffer.concat(contents);
  const n = content.length;
  let length: Buffer;
  if (n < 0x80) length = Buffer.from([n]);
  else {
    const bytes: number[] = [];
    for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
    length = Buffer.from([0x80 | bytes.length, ...bytes]);
  }
  return Buffer.concat([Buffer.from([tag]), length, content]);
}

/** A non-negative INTEGER of any size, minimally encoded. */
export function integer(value: bigint): Asn1 {
  if (value < 0n) throw new Error('only non-negative integers are encoded here');
  let hex = value.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  if (Number.parseInt(hex.slice(0, 2), 16) & 0x80) hex = `00${hex}`;
  return asn1.create(U, asn1.Type.INTEGER, false, binary(Buffer.from(hex, 'hex')));
}

/** GeneralizedTime in UTC with milliseconds, trailing zeros dropped (RFC 3161 §2.4.2). */
export function generalizedTime(date: Date): Asn1 {
  const iso = date.toISOString(); // 2026-11-22T10:11:12.340Z
  let text = iso.slice(0, 19).replace(/[-:T]/g, '');
  const ms = iso.slice(20, 23).replace(/0+$/, '');
  if (ms) text += `.${ms}`;
  return asn1.create(U, asn1.Type.GENERALIZEDTIME, false, `${text}Z`);
}

export const utcTime = (date: Date): Asn1 => asn1.create(U, asn1.Type.UTCTIME, false, asn1.dateToUtcTime(date));

/** An AlgorithmIdentifier of a hash, parameters absent (RFC 5754 §2). */
export const hashAlgorithm = (dotted: string): Asn1 => seq([oid(dotted)]);

export const toDer = (value: Asn1): Buffer => Buffer.from(asn1.toDer(value).getBytes(), 'binary');
