import { constants, type KeyObject, verify } from 'node:crypto';
import * as pkijs from 'pkijs';
import { HASH_NAMES, OID } from './asn1.js';
import type { TokenSigner } from './time-stamp-token.js';

type Hash = 'sha256' | 'sha384' | 'sha512';

/** The digests a token's signature may use: the SHA-2 family (SHA-1 is no longer a signature digest). */
const SIGNATURE_HASHES: ReadonlySet<string> = new Set<Hash>(['sha256', 'sha384', 'sha512']);

/**
 * The signature algorithms a TSA writes in its SignerInfo (RFC 5754, RFC 4056, RFC 5758): the key
 * type each needs and the digest it names, if any (a bare rsaEncryption or id-ecPublicKey takes the
 * SignerInfo's digest algorithm).
 */
const SIGNATURE_ALGORITHMS: Record<string, { key: 'rsa' | 'ec' | 'rsa-pss'; hash?: Hash }> = {
  [OID.rsaEncryption]: { key: 'rsa' },
  '1.2.840.113549.1.1.11': { key: 'rsa', hash: 'sha256' },
  '1.2.840.113549.1.1.12': { key: 'rsa', hash: 'sha384' },
  '1.2.840.113549.1.1.13': { key: 'rsa', hash: 'sha512' },
  [OID.rsassaPss]: { key: 'rsa-pss' },
  '1.2.840.10045.2.1': { key: 'ec' },
  '1.2.840.10045.4.3.2': { key: 'ec', hash: 'sha256' },
  '1.2.840.10045.4.3.3': { key: 'ec', hash: 'sha384' },
  '1.2.840.10045.4.3.4': { key: 'ec', hash: 'sha512' },
};

/** The NIST curves accepted for ECDSA signers: P-256, P-384, P-521. */
const CURVES: ReadonlySet<string> = new Set(['prime256v1', 'secp384r1', 'secp521r1']);

/**
 * Checks the SignerInfo's signature over the DER signed attributes with the signer's public key:
 * RSASSA-PKCS1-v1_5, RSASSA-PSS (its hash, MGF1 hash and salt length from the parameters) or
 * ECDSA on a NIST curve, with SHA-256/384/512. Returns null when it holds, else why not.
 */
export function signatureProblem(signer: TokenSigner, key: KeyObject): string | null {
  const hash = HASH_NAMES[signer.digestAlgorithm];
  if (!hash || !SIGNATURE_HASHES.has(hash)) return 'the signer digest algorithm is not supported';
  const algorithm = SIGNATURE_ALGORITHMS[signer.signatureAlgorithm];
  if (!algorithm) return `the signature algorithm ${signer.signatureAlgorithm} is not supported`;
  if (algorithm.hash && algorithm.hash !== hash) return 'the signature algorithm does not match the digest algorithm';
  const keyType = key.asymmetricKeyType;
  let valid: boolean;
  try {
    if (algorithm.key === 'ec') {
      if (keyType !== 'ec') return 'the signer key does not fit the signature algorithm';
      if (!CURVES.has(key.asymmetricKeyDetails?.namedCurve ?? '')) return 'the signer key curve is not supported';
      valid = verify(hash, signer.signedAttributes, { key, dsaEncoding: 'der' }, signer.signature);
    } else if (algorithm.key === 'rsa-pss') {
      if (keyType !== 'rsa' && keyType !== 'rsa-pss') return 'the signer key does not fit the signature algorithm';
      const saltLength = pssSaltLength(signer, hash);
      if (saltLength === null) return 'the RSA-PSS parameters do not match the digest algorithm';
      valid = verify(
        hash,
        signer.signedAttributes,
        { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength },
        signer.signature,
      );
    } else {
      if (keyType !== 'rsa') return 'the signer key does not fit the signature algorithm';
      valid = verify(hash, signer.signedAttributes, { key, padding: constants.RSA_PKCS1_PADDING }, signer.signature);
    }
  } catch {
    valid = false;
  }
  return valid ? null : 'the signature over the signed attributes is not valid';
}

/**
 * RSASSA-PSS-params (RFC 4055 §3.1): the hash and the MGF1 hash must both be the signer's digest
 * (its defaults, SHA-1, are refused); returns the salt length, or null when the parameters differ.
 */
function pssSaltLength(signer: TokenSigner, hash: string): number | null {
  try {
    const params = new pkijs.RSASSAPSSParams({ schema: signer.signatureParameters });
    const mgfHash = new pkijs.AlgorithmIdentifier({ schema: params.maskGenAlgorithm.algorithmParams });
    const same =
      HASH_NAMES[params.hashAlgorithm.algorithmId] === hash &&
      params.maskGenAlgorithm.algorithmId === OID.mgf1 &&
      HASH_NAMES[mgfHash.algorithmId] === hash &&
      params.trailerField === 1;
    return same ? params.saltLength : null;
  } catch {
    return null;
  }
}
