import { createHash } from 'node:crypto';
import type forge from 'node-forge';
import { HASH_NAMES, nullValue, OID, octets, oid, seq, toDer } from './asn1.js';
import {
  certificateNames,
  derToPem,
  forgeCertificate,
  hasTimeStampingUsageOnly,
  isCa,
  nameOf,
  pemToDers,
  validAt,
} from './certificates.js';
import { childrenOf, expectTag, oidOf, TAG } from './der.js';
import { parseTimeStampToken, type TimeStampToken } from './time-stamp-token.js';

/** What a token must prove. */
export interface TokenExpectation {
  /** The SHA-256 (hex) that was time-stamped: a closing's `closing_hash`. */
  digestHex: string;
  /** The nonce of the request, when known (RFC 3161 §2.4.2: the reply must echo it). */
  nonce?: bigint | null;
  /** PEM trust anchors; the signer's certificate must chain to one of them. */
  trustedCaPems: readonly string[];
}

/** What a token says, for the anchor row. */
export interface TokenFacts {
  serialNumber: string;
  genTime: Date;
  policy: string;
  nonce: bigint | null;
  tsaName: string;
  /** The certificates carried in the token, signer first, as PEM. */
  certificateChain: string;
}

export type TokenVerification =
  | { valid: true; facts: TokenFacts; caPem: string }
  | { valid: false; reason: string; facts: TokenFacts | null };

const sha = (algorithm: string, data: Buffer) => createHash(algorithm).update(data).digest();

/**
 * Verifies an RFC 3161 token in process, as `openssl ts -verify` does (RFC 3161 §2.4.2, RFC 5652
 * §5.4/§5.6, RFC 5816): the imprint is the expected SHA-256, the nonce is the request's, the
 * signer's certificate has the critical timeStamping usage alone and chains to a trusted CA
 * (validity checked at genTime), the signed attributes name the TSTInfo content type, carry its
 * digest and identify the signer's certificate (ESSCertIDv2 or ESSCertID), and the RSA signature
 * over the DER signed attributes is valid.
 */
export function verifyTimeStampToken(tokenDer: Buffer, expected: TokenExpectation): TokenVerification {
  let token: TimeStampToken;
  try {
    token = parseTimeStampToken(tokenDer);
  } catch (err) {
    return { valid: false, reason: `not a time-stamp token: ${(err as Error).message}`, facts: null };
  }
  const signerDer = token.certificates.find((der) => {
    const id = certificateNames(der);
    return id.issuer.equals(token.signer.issuer) && id.serial.equals(token.signer.serial);
  });
  let signer: forge.pki.Certificate | null = null;
  try {
    signer = signerDer ? forgeCertificate(signerDer) : null;
  } catch (err) {
    return { valid: false, reason: `unreadable signer certificate: ${(err as Error).message}`, facts: null };
  }
  const facts: TokenFacts = {
    serialNumber: `0x${token.serialNumber.toString(16).toUpperCase().padStart(2, '0')}`,
    genTime: token.genTime,
    policy: token.policy,
    nonce: token.nonce,
    tsaName: signer ? nameOf(signer.subject) : 'unknown',
    certificateChain: [signerDer, ...token.certificates.filter((c) => c !== signerDer)]
      .filter((c): c is Buffer => Boolean(c))
      .map(derToPem)
      .join(''),
  };
  const fail = (reason: string): TokenVerification => ({ valid: false, reason, facts });

  if (token.eContentType !== OID.tstInfo) return fail('the signed content is not a TSTInfo');
  if (token.hashAlgorithm !== OID.sha256) return fail('the message imprint is not SHA-256');
  if (!token.hashedMessage.equals(Buffer.from(expected.digestHex, 'hex'))) {
    return fail('the message imprint is not the expected hash');
  }
  if (expected.nonce !== undefined && expected.nonce !== null && token.nonce !== expected.nonce) {
    return fail('the nonce is not the one of the request');
  }
  if (!signer || !signerDer) return fail('the signer certificate is not in the token');
  if (!hasTimeStampingUsageOnly(signer)) {
    return fail('the signer certificate lacks the critical timeStamping extended key usage (RFC 3161 §2.3)');
  }
  const caPem = chainToTrusted(signer, token, expected.trustedCaPems);
  if (!caPem) return fail('the signer certificate does not chain to a trusted CA');
  const attributeProblem = checkSignedAttributes(token, signerDer);
  if (attributeProblem) return fail(attributeProblem);
  if (!signatureValid(signer, token)) return fail('the signature over the signed attributes is not valid');
  return { valid: true, facts, caPem };
}

/** Walks issuers (intermediates from the token) up to a trust anchor; returns the anchor's PEM. */
function chainToTrusted(
  signer: forge.pki.Certificate,
  token: TimeStampToken,
  trustedCaPems: readonly string[],
): string | null {
  if (!validAt(signer, token.genTime)) return null;
  const anchors = trustedCaPems
    .flatMap(pemToDers)
    .map((der) => ({ der, cert: readable(der) }))
    .filter((a): a is { der: Buffer; cert: forge.pki.Certificate } => a.cert !== null);
  const intermediates = token.certificates
    .map(readable)
    .filter((c): c is forge.pki.Certificate => c !== null && isCa(c));
  let current = signer;
  for (let depth = 0; depth < 5; depth++) {
    for (const anchor of anchors) {
      if (issuedBy(current, anchor.cert) && validAt(anchor.cert, token.genTime)) return derToPem(anchor.der);
    }
    const next = intermediates.find((c) => c !== current && issuedBy(current, c) && validAt(c, token.genTime));
    if (!next) return null;
    current = next;
  }
  return null;
}

function readable(der: Buffer): forge.pki.Certificate | null {
  try {
    return forgeCertificate(der);
  } catch {
    return null;
  }
}

function issuedBy(child: forge.pki.Certificate, issuer: forge.pki.Certificate): boolean {
  try {
    return isCa(issuer) && issuer.verify(child);
  } catch {
    return false;
  }
}

/** RFC 5652 §11.1-11.2 and RFC 5816 §2.2.1: contentType, messageDigest, signing certificate. */
function checkSignedAttributes(token: TimeStampToken, signerDer: Buffer): string | null {
  const attrs = token.signer.attributes;
  const hash = HASH_NAMES[token.signer.digestAlgorithm];
  if (!hash) return 'the signer digest algorithm is not supported';
  const contentType = attrs.get(OID.contentType)?.[0];
  if (!contentType || oidOf(contentType) !== OID.tstInfo) return 'the contentType attribute is not id-ct-TSTInfo';
  const digest = attrs.get(OID.messageDigest)?.[0];
  if (!digest || !expectTag(digest, TAG.OCTET_STRING, 'messageDigest').content.equals(sha(hash, token.tstInfo))) {
    return 'the messageDigest attribute is not the digest of the TSTInfo';
  }
  const v2 = attrs.get(OID.signingCertificateV2)?.[0];
  const v1 = attrs.get(OID.signingCertificate)?.[0];
  if (!v2 && !v1) return 'no signing-certificate attribute (RFC 5816)';
  const first = childrenOf(childrenOf((v2 ?? v1)!)[0])[0];
  const fields = childrenOf(first);
  let algorithm = v2 ? 'sha256' : 'sha1';
  let certHash = fields[0];
  if (fields[0].tag === TAG.SEQUENCE) {
    algorithm = HASH_NAMES[oidOf(childrenOf(fields[0])[0])] ?? '';
    certHash = fields[1];
  }
  if (!algorithm || !expectTag(certHash, TAG.OCTET_STRING, 'certHash').content.equals(sha(algorithm, signerDer))) {
    return 'the signing-certificate attribute does not identify the signer certificate';
  }
  return null;
}

/** RSASSA-PKCS1-v1_5 over the DER signed attributes, the DigestInfo compared byte for byte. */
function signatureValid(signer: forge.pki.Certificate, token: TimeStampToken): boolean {
  const hash = HASH_NAMES[token.signer.digestAlgorithm];
  // rsaEncryption, or sha256/384/512WithRSAEncryption: the RSA families openssl writes.
  if (!/^1\.2\.840\.113549\.1\.1\.(1|11|12|13)$/.test(token.signer.signatureAlgorithm)) return false;
  const digest = sha(hash, token.signer.signedAttributes);
  const algorithm = token.signer.digestAlgorithm;
  const withNull = toDer(seq([seq([oid(algorithm), nullValue()]), octets(digest)])).toString('binary');
  const withoutNull = toDer(seq([seq([oid(algorithm)]), octets(digest)])).toString('binary');
  const key = signer.publicKey as forge.pki.rsa.PublicKey;
  const signature = token.signer.signature.toString('binary');
  try {
    return key.verify(withNull, signature, 'NONE') || key.verify(withoutNull, signature, 'NONE');
  } catch {
    return false;
  }
}
