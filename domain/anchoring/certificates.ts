import forge from 'node-forge';
import { OID } from './asn1.js';
import { childrenOf, oidOf, parseDer, TAG } from './der.js';

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

/** node-forge's view of a DER certificate (RSA keys only: forge reads no other). */
export const forgeCertificate = (der: Buffer): forge.pki.Certificate =>
  forge.pki.certificateFromAsn1(forge.asn1.fromDer(der.toString('binary')));

/** `O=Local Test, CN=Local Test TSA`: a readable distinguished name. */
export const nameOf = (name: forge.pki.Certificate['subject']): string =>
  name.attributes.map((a) => `${a.shortName ?? a.name ?? a.type}=${String(a.value)}`).join(', ');

/**
 * RFC 3161 §2.3: the TSA's certificate has exactly one extended key usage, id-kp-timeStamping,
 * and the extension is critical. Read from the extension's own bytes, not forge's summary.
 */
export function hasTimeStampingUsageOnly(cert: forge.pki.Certificate): boolean {
  const ext = cert.extensions.find((e) => e.id === OID.extKeyUsage) as
    | { critical?: boolean; value?: string }
    | undefined;
  if (!ext?.critical || typeof ext.value !== 'string') return false;
  const purposes = childrenOf(parseDer(Buffer.from(ext.value, 'binary'))).map(oidOf);
  return purposes.length === 1 && purposes[0] === OID.timeStamping;
}

/** Whether a certificate may issue others (basicConstraints cA). */
export function isCa(cert: forge.pki.Certificate): boolean {
  const ext = cert.getExtension('basicConstraints') as { cA?: boolean } | null;
  return ext?.cA === true;
}

export const validAt = (cert: forge.pki.Certificate, when: Date): boolean =>
  cert.validity.notBefore.getTime() <= when.getTime() && when.getTime() <= cert.validity.notAfter.getTime();

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
