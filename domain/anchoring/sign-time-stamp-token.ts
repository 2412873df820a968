import { createHash, randomBytes } from 'node:crypto';
import forge from 'node-forge';
import {
  generalizedTime,
  hashAlgorithm,
  integer,
  nullValue,
  OID,
  octets,
  oid,
  seq,
  set,
  tlv,
  toDer,
  utcTime,
} from './asn1.js';
import { certificateNames } from './certificates.js';
import { TAG } from './der.js';
import { parseTimeStampRequest, type TimeStampRequest } from './time-stamp-request.js';
import { buildTimeStampResponse, FAILURE, PKI_STATUS } from './time-stamp-response.js';

/** What an authority signs with: its certificate, its CA's, its key and its policy. */
export interface SigningAuthority {
  tsaCertificate: Buffer;
  caCertificate: Buffer;
  privateKey: forge.pki.rsa.PrivateKey;
  policy: string;
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest();
/** DER SET OF: elements sorted by their encodings (X.690 §11.6). */
const setOf = (tag: number, items: Buffer[]) => tlv(tag, ...[...items].sort(Buffer.compare));

/**
 * Answers a DER TimeStampReq with a DER TimeStampResp, as a TSA does (RFC 3161 §2.4): `granted`
 * with a token for a SHA-256 imprint; `rejection` (badDataFormat, badAlg, unacceptedPolicy) for
 * anything else, as a real TSA answers rather than failing.
 */
export function answerTimeStampRequest(authority: SigningAuthority, requestDer: Buffer, now: Date): Buffer {
  let request: TimeStampRequest;
  try {
    request = parseTimeStampRequest(requestDer);
  } catch {
    return refuse(FAILURE.badDataFormat, 'the request is not a DER TimeStampReq');
  }
  if (request.hashAlgorithm !== OID.sha256 || request.hashedMessage.length !== 32) {
    return refuse(FAILURE.badAlg, 'only SHA-256 message imprints are time-stamped');
  }
  if (request.policy && request.policy !== authority.policy) {
    return refuse(FAILURE.unacceptedPolicy, `the only policy is ${authority.policy}`);
  }
  return buildTimeStampResponse({ token: signTimeStamp(authority, request, now) });
}

const refuse = (failure: number, text: string) =>
  buildTimeStampResponse({ status: PKI_STATUS.rejection, failure, text });

/**
 * A TimeStampToken: a CMS SignedData (RFC 5652) whose content is the TSTInfo, with the signed
 * attributes contentType, signingTime, messageDigest and signingCertificateV2 (ESSCertIDv2, RFC
 * 5816), signed RSASSA-PKCS1-v1_5 with SHA-256. The serial is random (128 bits), which keeps it
 * unique without a shared counter.
 */
export function signTimeStamp(authority: SigningAuthority, request: TimeStampRequest, now: Date): Buffer {
  const tsa = certificateNames(authority.tsaCertificate);
  const serial = BigInt(`0x${randomBytes(16).toString('hex')}`) | 1n;
  const tstInfo = tlv(
    TAG.SEQUENCE,
    toDer(integer(1n)),
    toDer(oid(authority.policy)),
    request.messageImprint,
    toDer(integer(serial)),
    toDer(generalizedTime(now)),
    toDer(seq([integer(1n)])), // accuracy: 1 second
    request.nonce === null ? Buffer.alloc(0) : toDer(integer(request.nonce)),
    tlv(TAG.context(0), tlv(TAG.context(4), tsa.subject)), // tsa [0] GeneralName: directoryName [4]
  );
  const issuerSerial = tlv(
    TAG.SEQUENCE,
    tlv(TAG.SEQUENCE, tlv(TAG.context(4), tsa.issuer)),
    tlv(TAG.INTEGER, tsa.serial),
  );
  const essCertIdV2 = tlv(TAG.SEQUENCE, toDer(octets(sha256(authority.tsaCertificate))), issuerSerial);
  const attributes = [
    toDer(seq([oid(OID.contentType), set([oid(OID.tstInfo)])])),
    toDer(seq([oid(OID.signingTime), set([utcTime(now)])])),
    toDer(seq([oid(OID.messageDigest), set([octets(sha256(tstInfo))])])),
    tlv(
      TAG.SEQUENCE,
      toDer(oid(OID.signingCertificateV2)),
      tlv(TAG.SET, tlv(TAG.SEQUENCE, tlv(TAG.SEQUENCE, essCertIdV2))),
    ),
  ];
  const md = forge.md.sha256.create();
  md.update(setOf(TAG.SET, attributes).toString('binary'));
  const signature = Buffer.from(authority.privateKey.sign(md), 'binary');
  const signerInfo = tlv(
    TAG.SEQUENCE,
    toDer(integer(1n)),
    tlv(TAG.SEQUENCE, tsa.issuer, tlv(TAG.INTEGER, tsa.serial)),
    toDer(hashAlgorithm(OID.sha256)),
    setOf(TAG.context(0), attributes),
    toDer(seq([oid(OID.rsaEncryption), nullValue()])),
    toDer(octets(signature)),
  );
  const certificates = request.certReq
    ? setOf(TAG.context(0), [authority.tsaCertificate, authority.caCertificate])
    : Buffer.alloc(0);
  const signedData = tlv(
    TAG.SEQUENCE,
    toDer(integer(3n)), // version 3: the content is not id-data (RFC 5652 §5.1)
    tlv(TAG.SET, toDer(hashAlgorithm(OID.sha256))),
    tlv(TAG.SEQUENCE, toDer(oid(OID.tstInfo)), tlv(TAG.context(0), tlv(TAG.OCTET_STRING, tstInfo))),
    certificates,
    tlv(TAG.SET, signerInfo),
  );
  return tlv(TAG.SEQUENCE, toDer(oid(OID.signedData)), tlv(TAG.context(0), signedData));
}
