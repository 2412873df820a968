import { createHash } from 'node:crypto';
import * as asn1js from 'asn1js';
import { HASH_NAMES, OID } from './asn1.js';
import { issuerAndSerial, type ReadCertificate } from './certificates.js';
import type { TimeStampToken } from './time-stamp-token.js';

const digest = (algorithm: string, data: Buffer) => createHash(algorithm).update(data).digest();
const bytesOf = (value: asn1js.OctetString | asn1js.Integer) => Buffer.from(value.valueBlock.valueHexView);
const childrenOf = (value: asn1js.AsnType | undefined): asn1js.AsnType[] =>
  value instanceof asn1js.Constructed ? value.valueBlock.value : [];

/**
 * RFC 5652 §11.1-11.2 and RFC 5816 §2.2.1: the contentType attribute names the TSTInfo, the
 * messageDigest attribute is the digest of the TSTInfo, and the signing-certificate attribute
 * (ESSCertIDv2, else ESSCertID) identifies the signer's certificate. Null when all hold.
 */
export function signedAttributesProblem(token: TimeStampToken, signer: ReadCertificate): string | null {
  const attrs = token.signer.attributes;
  const hash = HASH_NAMES[token.signer.digestAlgorithm];
  if (!hash) return 'the signer digest algorithm is not supported';
  const contentType = attrs.get(OID.contentType)?.[0];
  if (!(contentType instanceof asn1js.ObjectIdentifier) || contentType.getValue() !== OID.tstInfo) {
    return 'the contentType attribute is not id-ct-TSTInfo';
  }
  const messageDigest = attrs.get(OID.messageDigest)?.[0];
  if (!(messageDigest instanceof asn1js.OctetString) || !bytesOf(messageDigest).equals(digest(hash, token.tstInfo))) {
    return 'the messageDigest attribute is not the digest of the TSTInfo';
  }
  const v2 = attrs.get(OID.signingCertificateV2)?.[0];
  const v1 = attrs.get(OID.signingCertificate)?.[0];
  if (!v2 && !v1) return 'no signing-certificate attribute (RFC 5816)';
  return identifiesSigner(v2 ?? v1, v2 ? 'sha256' : 'sha1', signer)
    ? null
    : 'the signing-certificate attribute does not identify the signer certificate';
}

/**
 * SigningCertificate(V2) ::= SEQUENCE { certs SEQUENCE OF ESSCertID(v2), ... }: the first ESSCertID
 * is the signer's (RFC 5035 §5.4). ESSCertIDv2 ::= SEQUENCE { hashAlgorithm DEFAULT sha256, certHash,
 * issuerSerial OPTIONAL }; ESSCertID ::= SEQUENCE { certHash (SHA-1), issuerSerial OPTIONAL }.
 */
function identifiesSigner(value: asn1js.AsnType | undefined, defaultHash: string, signer: ReadCertificate): boolean {
  const first = childrenOf(childrenOf(value)[0])[0];
  const fields = childrenOf(first);
  let algorithm: string | undefined = defaultHash;
  let rest = fields;
  if (fields[0] instanceof asn1js.Sequence) {
    const oid = childrenOf(fields[0])[0];
    algorithm = oid instanceof asn1js.ObjectIdentifier ? HASH_NAMES[oid.getValue()] : undefined;
    rest = fields.slice(1);
  }
  const [certHash, issuerSerial] = rest;
  if (!algorithm || !(certHash instanceof asn1js.OctetString)) return false;
  if (!bytesOf(certHash).equals(digest(algorithm, signer.der))) return false;
  return issuerSerial === undefined || issuerSerialMatches(issuerSerial, signer);
}

/** IssuerSerial ::= SEQUENCE { issuer GeneralNames, serialNumber }: a directoryName [4] and the serial. */
function issuerSerialMatches(value: asn1js.AsnType, signer: ReadCertificate): boolean {
  const [names, serial] = childrenOf(value);
  const own = issuerAndSerial(signer);
  if (!(serial instanceof asn1js.Integer) || !bytesOf(serial).equals(own.serial)) return false;
  return childrenOf(names).some(
    (name) =>
      name.idBlock.tagClass === 3 &&
      name.idBlock.tagNumber === 4 &&
      childrenOf(name).some((inner) => Buffer.from(inner.valueBeforeDecodeView).equals(own.issuer)),
  );
}
