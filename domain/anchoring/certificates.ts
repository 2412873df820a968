import { X509Certificate } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { OID } from './asn1.js';
import { childrenOf, parseDer, TAG } from './der.js';
import { parseAsn1 } from './time-stamp-token.js';

/** A certificate as PEM, straight from its DER (never re-encoded). */
export function derToPem(der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}

/** Every certificate of a PEM bundle, as DER. */
export function pemToDers(pem: string): Buffer[] {
  const out: Buffer[] = [];
  for (const m of pem.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g)) {
    out.push(Buffer.from(m[1].replace(/\s+/g, ''), 'base64'));
  }
  return out;
}

/**
 * One DER certificate read twice: by Node (OpenSSL: keys, signatures, issuer checks, any key
 * type) and by PKI.js (the fields and extensions exactly as encoded, criticality included).
 */
export interface ReadCertificate {
  der: Buffer;
  x509: X509Certificate;
  fields: pkijs.Certificate;
}

/** Reads a DER certificate; null when either reader refuses it. */
export function readCertificate(der: Buffer): ReadCertificate | null {
  try {
    return {
      der,
      x509: new X509Certificate(der),
      fields: new pkijs.Certificate({ schema: parseAsn1(der, 'Certificate') }),
    };
  } catch {
    return null;
  }
}

/** `O=Local Test, CN=Local Test TSA`: a readable distinguished name. */
export const subjectOf = (cert: ReadCertificate): string => cert.x509.subject.split('\n').join(', ');

/** The issuer Name (DER) and serial (INTEGER contents) of a certificate, as a SignerInfo names them. */
export const issuerAndSerial = (cert: ReadCertificate) => ({
  issuer: Buffer.from(cert.fields.issuer.valueBeforeDecode),
  serial: Buffer.from(cert.fields.serialNumber.valueBlock.valueHexView),
});

/** The subjectKeyIdentifier extension's key identifier, when there is one. */
export function subjectKeyIdentifier(cert: ReadCertificate): Buffer | null {
  const ext = cert.fields.extensions?.find((e) => e.extnID === OID.subjectKeyIdentifier);
  const value = ext?.parsedValue;
  return value instanceof asn1js.OctetString ? Buffer.from(value.valueBlock.valueHexView) : null;
}

/**
 * RFC 3161 §2.3: the TSA's certificate has exactly one extended key usage, id-kp-timeStamping,
 * and the extension is critical.
 */
export function hasTimeStampingUsageOnly(cert: ReadCertificate): boolean {
  const ext = cert.fields.extensions?.find((e) => e.extnID === OID.extKeyUsage);
  if (!ext?.critical || !(ext.parsedValue instanceof pkijs.ExtKeyUsage)) return false;
  const purposes = ext.parsedValue.keyPurposes;
  return purposes.length === 1 && purposes[0] === OID.timeStamping;
}

export const validAt = (cert: ReadCertificate, when: Date): boolean =>
  cert.x509.validFromDate.getTime() <= when.getTime() && when.getTime() <= cert.x509.validToDate.getTime();

/**
 * Whether `issuer` issued `child`: a CA certificate (basicConstraints cA) whose name (and key
 * identifier, key usage) OpenSSL accepts as the child's issuer, and whose key verifies the
 * child's signature, whatever the key type.
 */
export function issuedBy(child: ReadCertificate, issuer: ReadCertificate): boolean {
  try {
    return issuer.x509.ca && child.x509.checkIssued(issuer.x509) && child.x509.verify(issuer.x509.publicKey);
  } catch {
    return false;
  }
}

/** The serial (INTEGER contents), issuer and subject Names (DER) of a DER certificate, byte for byte. */
export function certificateNames(certificate: Buffer): { serial: Buffer; issuer: Buffer; subject: Buffer } {
  const tbs = childrenOf(childrenOf(parseDer(certificate))[0]);
  const fields = tbs[0].tag === TAG.context(0) ? tbs.slice(1) : tbs;
  return {
    serial: Buffer.from(fields[0].content),
    issuer: Buffer.from(fields[2].bytes),
    subject: Buffer.from(fields[4].bytes),
  };
}
