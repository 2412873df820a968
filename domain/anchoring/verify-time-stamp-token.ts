import type { KeyObject } from 'node:crypto';
import { OID } from './asn1.js';
import {
  derToPem,
  hasTimeStampingUsageOnly,
  issuedBy,
  issuerAndSerial,
  pemToDers,
  type ReadCertificate,
  readCertificate,
  subjectKeyIdentifier,
  subjectOf,
  validAt,
} from './certificates.js';
import { signedAttributesProblem } from './signed-attributes.js';
import { signatureProblem } from './signer-signature.js';
import { parseTimeStampToken, type SignerId, type TimeStampToken } from './time-stamp-token.js';

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

/** How deep a chain may go from the signer to a trust anchor. */
const MAX_CHAIN = 5;

/**
 * Verifies an RFC 3161 token in process, as `openssl ts -verify` does (RFC 3161 §2.4.2, RFC 5652
 * §5.4/§5.6, RFC 5816), whatever the TSA's key type: the imprint is the expected SHA-256, the nonce
 * is the request's, the signer's certificate has the critical timeStamping usage alone and chains
 * to a trusted CA (validity checked at genTime), the signed attributes name the TSTInfo content
 * type, carry its digest and identify the signer's certificate (ESSCertIDv2 or ESSCertID), and the
 * signature over the DER signed attributes holds (RSA PKCS#1 v1.5, RSA-PSS or ECDSA). PKI.js and
 * asn1js read the CMS; Node's crypto (OpenSSL) checks every signature.
 */
export function verifyTimeStampToken(tokenDer: Buffer, expected: TokenExpectation): TokenVerification {
  let token: TimeStampToken;
  try {
    token = parseTimeStampToken(tokenDer);
  } catch (err) {
    return { valid: false, reason: `not a time-stamp token: ${(err as Error).message}`, facts: null };
  }
  const carried = token.certificates.map(readCertificate);
  const signerIndex = carried.findIndex((cert) => cert !== null && isSigner(cert, token.signer.id));
  const signer = signerIndex === -1 ? null : carried[signerIndex];
  const others = token.certificates.filter((_, i) => i !== signerIndex);
  const facts: TokenFacts = {
    serialNumber: `0x${token.serialNumber.toString(16).toUpperCase().padStart(2, '0')}`,
    genTime: token.genTime,
    policy: token.policy,
    nonce: token.nonce,
    tsaName: signer ? subjectOf(signer) : 'unknown',
    certificateChain: [...(signer ? [signer.der] : []), ...others].map(derToPem).join(''),
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
  if (!signer) return fail('the signer certificate is not in the token');
  if (!hasTimeStampingUsageOnly(signer)) {
    return fail('the signer certificate lacks the critical timeStamping extended key usage (RFC 3161 §2.3)');
  }
  const intermediates = carried.filter((c): c is ReadCertificate => c !== null && c !== signer && c.x509.ca);
  const caPem = chainToTrusted(signer, intermediates, expected.trustedCaPems, token.genTime);
  if (!caPem) return fail('the signer certificate does not chain to a trusted CA');
  if (!token.digestAlgorithms.includes(token.signer.digestAlgorithm)) {
    return fail('the SignedData does not list the signer digest algorithm');
  }
  const attributeProblem = signedAttributesProblem(token, signer);
  if (attributeProblem) return fail(attributeProblem);
  let key: KeyObject;
  try {
    key = signer.x509.publicKey;
  } catch {
    return fail('the signer certificate key cannot be read');
  }
  const signatureFault = signatureProblem(token.signer, key);
  if (signatureFault) return fail(signatureFault);
  return { valid: true, facts, caPem };
}

/** Whether a certificate is the one the SignerInfo names (issuer and serial, or key identifier). */
function isSigner(cert: ReadCertificate, id: SignerId): boolean {
  if ('subjectKeyIdentifier' in id) return subjectKeyIdentifier(cert)?.equals(id.subjectKeyIdentifier) ?? false;
  const own = issuerAndSerial(cert);
  return own.issuer.equals(id.issuer) && own.serial.equals(id.serial);
}

/** Walks issuers (intermediates from the token) up to a trust anchor; returns the anchor's PEM. */
function chainToTrusted(
  signer: ReadCertificate,
  intermediates: ReadCertificate[],
  trustedCaPems: readonly string[],
  at: Date,
): string | null {
  if (!validAt(signer, at)) return null;
  const anchors = trustedCaPems
    .flatMap(pemToDers)
    .map(readCertificate)
    .filter((a): a is ReadCertificate => a !== null);
  let current = signer;
  for (let depth = 0; depth < MAX_CHAIN; depth++) {
    const anchor = anchors.find((a) => issuedBy(current, a) && validAt(a, at));
    if (anchor) return derToPem(anchor.der);
    const next = intermediates.find((c) => c !== current && issuedBy(current, c) && validAt(c, at));
    if (!next) return null;
    current = next;
  }
  return null;
}
