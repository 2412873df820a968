import { constants, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import * as asn1js from 'asn1js';
import test from 'ava';
import * as pkijs from 'pkijs';
import { OID } from '../../domain/anchoring/asn1.js';
import { signatureProblem } from '../../domain/anchoring/signer-signature.js';
import type { TokenSigner } from '../../domain/anchoring/time-stamp-token.js';

/**
 * The SignerInfo signature check on its own, for the algorithms the local test TSA does not make:
 * ECDSA P-384 with SHA-384 and RSASSA-PSS; and the mismatches it refuses.
 */
const SIGNED = Buffer.from('1\u0000the DER signed attributes stand-in');
const ECDSA_SHA384 = '1.2.840.10045.4.3.3';
const SHA512_WITH_RSA = '1.2.840.113549.1.1.13';

const ec384 = generateKeyPairSync('ec', { namedCurve: 'P-384' });
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });

const signer = (fields: Partial<TokenSigner>): TokenSigner => ({
  id: { subjectKeyIdentifier: Buffer.alloc(20) },
  digestAlgorithm: OID.sha256,
  signedAttributes: SIGNED,
  attributes: new Map(),
  signatureAlgorithm: OID.rsaEncryption,
  signatureParameters: undefined,
  signature: Buffer.alloc(0),
  ...fields,
});

const flipped = (signature: Buffer) => {
  const copy = Buffer.from(signature);
  copy[copy.length - 1] ^= 0x01;
  return copy;
};

/** RSASSA-PSS-params as a signer writes them, read back by asn1js as a token's are. */
function pssParameters(hash: string, mgfHash: string, saltLength: number): asn1js.AsnType {
  const algorithm = (id: string) =>
    new pkijs.AlgorithmIdentifier({ algorithmId: id, algorithmParams: new asn1js.Null() });
  const params = new pkijs.RSASSAPSSParams({
    hashAlgorithm: algorithm(hash),
    maskGenAlgorithm: new pkijs.AlgorithmIdentifier({
      algorithmId: OID.mgf1,
      algorithmParams: algorithm(mgfHash).toSchema(),
    }),
    saltLength,
  });
  return asn1js.fromBER(params.toSchema().toBER()).result;
}

const pssSign = (key: KeyObject, saltLength: number) =>
  sign('sha256', SIGNED, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength });

test('ECDSA P-384 with SHA-384 verifies; a flipped byte does not', (t) => {
  const signature = sign('sha384', SIGNED, { key: ec384.privateKey, dsaEncoding: 'der' });
  const good = signer({ digestAlgorithm: OID.sha384, signatureAlgorithm: ECDSA_SHA384, signature });
  t.is(signatureProblem(good, ec384.publicKey), null);
  t.is(
    signatureProblem({ ...good, signature: flipped(signature) }, ec384.publicKey),
    'the signature over the signed attributes is not valid',
  );
  t.is(
    signatureProblem({ ...good, digestAlgorithm: OID.sha256 }, ec384.publicKey),
    'the signature algorithm does not match the digest algorithm',
  );
});

test('RSASSA-PSS with SHA-256, MGF1-SHA-256 and its salt length verifies; other parameters are refused', (t) => {
  const signature = pssSign(rsa.privateKey, 32);
  const good = signer({
    signatureAlgorithm: OID.rsassaPss,
    signatureParameters: pssParameters(OID.sha256, OID.sha256, 32),
    signature,
  });
  t.is(signatureProblem(good, rsa.publicKey), null);
  t.is(
    signatureProblem({ ...good, signature: flipped(signature) }, rsa.publicKey),
    'the signature over the signed attributes is not valid',
  );
  t.is(
    signatureProblem({ ...good, signatureParameters: pssParameters(OID.sha256, OID.sha256, 20) }, rsa.publicKey),
    'the signature over the signed attributes is not valid',
    'the salt length is the one the parameters name',
  );
  t.is(
    signatureProblem({ ...good, signatureParameters: pssParameters(OID.sha256, OID.sha1, 32) }, rsa.publicKey),
    'the RSA-PSS parameters do not match the digest algorithm',
  );
  t.is(
    signatureProblem({ ...good, signatureParameters: undefined }, rsa.publicKey),
    'the RSA-PSS parameters do not match the digest algorithm',
    'absent parameters mean SHA-1, which is refused',
  );
});

test('a key of the wrong type, an unsupported curve or digest, or a mismatched algorithm is refused', (t) => {
  const rsaSignature = sign('sha256', SIGNED, rsa.privateKey);
  const good = signer({ signature: rsaSignature });
  t.is(signatureProblem(good, rsa.publicKey), null);
  t.is(signatureProblem(good, ec384.publicKey), 'the signer key does not fit the signature algorithm');
  t.is(
    signatureProblem({ ...good, signatureAlgorithm: SHA512_WITH_RSA }, rsa.publicKey),
    'the signature algorithm does not match the digest algorithm',
  );
  t.is(
    signatureProblem({ ...good, digestAlgorithm: OID.sha1 }, rsa.publicKey),
    'the signer digest algorithm is not supported',
  );
  t.is(
    signatureProblem({ ...good, signatureAlgorithm: '1.2.840.10040.4.3' }, rsa.publicKey),
    'the signature algorithm 1.2.840.10040.4.3 is not supported',
  );
  const k1 = generateKeyPairSync('ec', { namedCurve: 'secp256k1' });
  const k1Signature = sign('sha256', SIGNED, { key: k1.privateKey, dsaEncoding: 'der' });
  t.is(
    signatureProblem(signer({ signatureAlgorithm: '1.2.840.10045.4.3.2', signature: k1Signature }), k1.publicKey),
    'the signer key curve is not supported',
  );
});
