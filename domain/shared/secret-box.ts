import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (spec/DECISIONS.md, "Processes and configuration"): AES-256-GCM under APP_KEY,
 * a fresh 96-bit nonce per value. `context` (a row id, say) is authenticated with the value, so a
 * sealed value copied to another row does not open there. Format: `v1:` + base64(nonce|tag|data).
 */
export function seal(key: Buffer, plaintext: string, context = ''): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `v1:${Buffer.concat([nonce, cipher.getAuthTag(), data]).toString('base64')}`;
}

/** Opens a value sealed by `seal`; throws when the key, the context or the bytes do not match. */
export function open(key: Buffer, sealed: string, context = ''): string {
  if (!sealed.startsWith('v1:')) throw new Error('unknown sealed-value format');
  const raw = Buffer.from(sealed.slice(3), 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}
