import { generateKeyPairSync, randomBytes } from 'node:crypto';
import forge from 'node-forge';

/** How the built-in authority names itself: a test authority, never a qualified one. */
export const BUILTIN_TSA_NAME = 'Built-in TSA - not a qualified authority';
/** Its policy: an OID of the private test arc also used by the local test TSA (spec tsa/README.md). */
export const BUILTIN_TSA_POLICY = '1.3.6.1.4.1.99999.2.1';

/** A freshly made authority: a root CA and a TSA certificate it issued, with their RSA keys (PEM). */
export interface BuiltinMaterial {
  caCertificate: Buffer;
  tsaCertificate: Buffer;
  caKeyPem: string;
  tsaKeyPem: string;
}

const YEARS = 20;
// UTF8String values; the typings call the tag a class (forge reads it as the value's universal type).
const UTF8 = forge.asn1.Type.UTF8 as unknown as forge.asn1.Class;
const name = (cn: string): forge.pki.CertificateField[] => [
  { shortName: 'O', value: 'Local Test', valueTagClass: UTF8 },
  { shortName: 'CN', value: cn, valueTagClass: UTF8 },
];

/** A positive serial of 16 random bytes, as forge wants it (hex). */
const serial = () => {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0] & 0x7f) | 0x01;
  return bytes.toString('hex');
};

const rsaKeyPair = () => {
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  });
  const key = forge.pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey;
  return { privateKey: key, publicKey: forge.pki.setRsaPublicKey(key.n, key.e), pem: privateKey };
};

const der = (cert: forge.pki.Certificate) =>
  Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), 'binary');

/**
 * Makes the built-in authority once: a root CA (basicConstraints CA, keyCertSign) and a TSA
 * certificate with the one critical timeStamping extended key usage RFC 3161 §2.3 requires (openssl
 * refuses to verify tokens of any other), both named "Local Test / Built-in TSA ... not a qualified
 * authority", valid 20 years.
 */
export function createBuiltinMaterial(now: Date): BuiltinMaterial {
  const notBefore = new Date(now.getTime() - 60 * 60 * 1000);
  const notAfter = new Date(Date.UTC(now.getUTCFullYear() + YEARS, now.getUTCMonth(), now.getUTCDate()));
  const ca = rsaKeyPair();
  const caCert = forge.pki.createCertificate();
  caCert.publicKey = ca.publicKey;
  caCert.serialNumber = serial();
  caCert.validity.notBefore = notBefore;
  caCert.validity.notAfter = notAfter;
  caCert.setSubject(name('Built-in TSA Root CA - not a qualified authority'));
  caCert.setIssuer(name('Built-in TSA Root CA - not a qualified authority'));
  caCert.setExtensions([
    { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  caCert.sign(ca.privateKey, forge.md.sha256.create());

  const tsa = rsaKeyPair();
  const tsaCert = forge.pki.createCertificate();
  tsaCert.publicKey = tsa.publicKey;
  tsaCert.serialNumber = serial();
  tsaCert.validity.notBefore = notBefore;
  tsaCert.validity.notAfter = notAfter;
  tsaCert.setSubject(name(BUILTIN_TSA_NAME));
  tsaCert.setIssuer(caCert.subject.attributes);
  tsaCert.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true, critical: true },
    { name: 'extKeyUsage', timeStamping: true, critical: true },
    { name: 'subjectKeyIdentifier' },
    { name: 'authorityKeyIdentifier', keyIdentifier: caCert.generateSubjectKeyIdentifier().getBytes() },
  ]);
  tsaCert.sign(ca.privateKey, forge.md.sha256.create());
  return { caCertificate: der(caCert), tsaCertificate: der(tsaCert), caKeyPem: ca.pem, tsaKeyPem: tsa.pem };
}
