import { randomBytes } from 'node:crypto';
import { bool, integer, nullValue, OID, octets, oid, seq, toDer } from './asn1.js';
import { bigIntOf, childrenOf, type Der, expectTag, oidOf, parseDer, TAG } from './der.js';

/** What a TimeStampReq asks for (RFC 3161 §2.4.1). */
export interface TimeStampRequest {
  hashAlgorithm: string;
  hashedMessage: Buffer;
  /** The raw MessageImprint element, which a TSA copies into its TSTInfo. */
  messageImprint: Buffer;
  policy: string | null;
  nonce: bigint | null;
  certReq: boolean;
}

/** A random 64-bit nonce (RFC 3161 §2.4.1: large enough to be unique among the requests of a client). */
export const randomNonce = (): bigint => BigInt(`0x${randomBytes(8).toString('hex')}`);

/**
 * The DER TimeStampReq for a SHA-256 digest given in hex: version 1, the message imprint, the
 * nonce, and certReq true, so that the reply carries the TSA's certificate for later checks.
 */
export function buildTimeStampRequest(digestHex: string, nonce: bigint): Buffer {
  if (!/^[0-9a-f]{64}$/.test(digestHex)) throw new Error('a SHA-256 digest is 64 lowercase hex characters');
  return toDer(
    seq([
      integer(1n),
      seq([seq([oid(OID.sha256), nullValue()]), octets(Buffer.from(digestHex, 'hex'))]),
      integer(nonce),
      bool(true),
    ]),
  );
}

/** Reads a DER TimeStampReq; throws on anything malformed (the TSA then answers `rejection`). */
export function parseTimeStampRequest(buf: Buffer): TimeStampRequest {
  const request = expectTag(parseDer(buf), TAG.SEQUENCE, 'TimeStampReq');
  const [version, imprint, ...rest] = childrenOf(request);
  if (bigIntOf(version) !== 1n) throw new Error('TimeStampReq version must be 1');
  const [algorithm, hashed] = childrenOf(expectTag(imprint, TAG.SEQUENCE, 'MessageImprint'));
  const hashAlgorithm = oidOf(childrenOf(expectTag(algorithm, TAG.SEQUENCE, 'AlgorithmIdentifier'))[0]);
  const hashedMessage = expectTag(hashed, TAG.OCTET_STRING, 'hashedMessage').content;
  let policy: string | null = null;
  let nonce: bigint | null = null;
  let certReq = false;
  for (const item of rest as Der[]) {
    if (item.tag === TAG.OID) policy = oidOf(item);
    else if (item.tag === TAG.INTEGER) nonce = bigIntOf(item);
    else if (item.tag === TAG.BOOLEAN) certReq = item.content[0] !== 0;
    else if (item.tag !== TAG.context(0)) throw new Error('TimeStampReq: unexpected field');
  }
  return { hashAlgorithm, hashedMessage, messageImprint: imprint.bytes, policy, nonce, certReq };
}
