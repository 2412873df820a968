import forge from 'node-forge';
import { integer, seq, tlv, toDer, utf8 } from './asn1.js';
import { bigIntOf, childrenOf, expectTag, parseDer, TAG } from './der.js';

/** PKIStatus values (RFC 3161 §2.4.2). */
export const PKI_STATUS = {
  granted: 0,
  grantedWithMods: 1,
  rejection: 2,
  waiting: 3,
  revocationWarning: 4,
  revocationNotification: 5,
} as const;

/** PKIFailureInfo bit numbers (RFC 3161 §2.4.2). */
export const FAILURE = { badAlg: 0, badRequest: 2, badDataFormat: 5, unacceptedPolicy: 15, systemFailure: 25 } as const;

export interface TimeStampResponse {
  status: number;
  statusText: string[];
  /** The TimeStampToken (a DER ContentInfo), present when granted. */
  token: Buffer | null;
}

/** Reads a DER TimeStampResp; throws when the bytes are not one. */
export function parseTimeStampResponse(buf: Buffer): TimeStampResponse {
  const [statusInfo, token] = childrenOf(expectTag(parseDer(buf), TAG.SEQUENCE, 'TimeStampResp'));
  const [status, ...rest] = childrenOf(expectTag(statusInfo, TAG.SEQUENCE, 'PKIStatusInfo'));
  const text = rest.find((item) => item.tag === TAG.SEQUENCE);
  return {
    status: Number(bigIntOf(status)),
    statusText: text ? childrenOf(text).map((s) => s.content.toString('utf8')) : [],
    token: token ? Buffer.from(expectTag(token, TAG.SEQUENCE, 'TimeStampToken').bytes) : null,
  };
}

/** A DER TimeStampResp: `granted` with its token, or a refusal with a failure bit and a text. */
export function buildTimeStampResponse(
  answer: { token: Buffer } | { status: number; failure: number; text: string },
): Buffer {
  if ('token' in answer) {
    return tlv(TAG.SEQUENCE, toDer(seq([integer(BigInt(PKI_STATUS.granted))])), answer.token);
  }
  return toDer(seq([seq([integer(BigInt(answer.status)), seq([utf8(answer.text)]), failureBits(answer.failure)])]));
}

/** A PKIFailureInfo BIT STRING with one bit set, in minimal DER (trailing zero bits not encoded). */
function failureBits(bit: number) {
  const bytes = Buffer.alloc(Math.floor(bit / 8) + 1);
  bytes[bytes.length - 1] = 0x80 >> (bit % 8);
  const unused = 7 - (bit % 8);
  return forge.asn1.create(
    forge.asn1.Class.UNIVERSAL,
    forge.asn1.Type.BITSTRING,
    false,
    String.fromCharCode(unused) + bytes.toString('binary'),
  );
}
