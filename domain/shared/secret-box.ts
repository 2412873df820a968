import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { subkey } from './app-subkeys.js';

const NONCE_BYTES = 12;
/** GCM's full tag: a shorter one would make forging a sealed value far cheaper. */
const TAG_BYTES = 16;

/**
 * Secrets at rest (spec/DECISIONS.md, "Processes and configuration"): AES-256-GCM, a fresh 96-bit
 * nonce per value. `context` (a row id, say) is authenticated with the value, so a sealed value
 * copied to another row does not open there.
 *
 * Formats, by their prefix: `v2:` + base64(nonce|tag|data) under the sealing key derived from
 * APP_KEY (app-subkeys.ts), written by `seal`; `v1:`, the same layout under APP_KEY itself, written
 * before the key was derived and still opened, so stored values need no migration.
 */
export function seal(key: Buffer, plaintext: string, context = ''): string {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', subkey(key, 'secret-box'), nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `v2:${Buffer.concat([nonce, cipher.getAuthTag(), data]).toString('base64')}`;
}

/** Opens a value sealed by `seal` (either format); throws when the key, the context or the bytes do not match. */
export function open(key: Buffer, sealed: string, context = ''): string {
  const version = sealed.slice(0, 3);
  if (version !== 'v1:' && version !== 'v2:') throw new Error('unknown sealed-value format');
  const raw = Buffer.from(sealed.slice(3), 'base64');
  if (raw.length < NONCE_BYTES + TAG_BYTES) throw new Error('sealed value too short: its tag is incomplete');
  const decipher = createDecipheriv(
    'aes-256-gcm',
    version === 'v2:' ? subkey(key, 'secret-box') : key,
    raw.subarray(0, NONCE_BYTES),
    { authTagLength: TAG_BYTES },
  );
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(raw.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(raw.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}

/** Whether a sealed value predates the derived sealing key (a re-seal would move it to `v2:`). */
export const isLegacySeal = (sealed: string): boolean => sealed.startsWith('v1:');

/** First byte of a sealed file: the layout and key below (a later format gets another). */
const FILE_FORMAT = 1;

/**
 * Files at rest (uploaded identity documents): the same AES-256-GCM, fresh 96-bit nonce and full
 * tag, under a key of its own derived from APP_KEY (`file-box`), on bytes rather than text.
 * `context` (the file's row id) is authenticated with them. Layout: format byte | nonce | tag | data.
 */
export function sealBytes(key: Buffer, plaintext: Buffer, context: string): Buffer {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', subkey(key, 'file-box'), nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const data = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([Buffer.of(FILE_FORMAT), nonce, cipher.getAuthTag(), data]);
}

/** Opens bytes sealed by `sealBytes`; throws when the key, the context or the bytes do not match. */
export function openBytes(key: Buffer, sealed: Buffer, context: string): Buffer {
  if (sealed[0] !== FILE_FORMAT) throw new Error('unknown sealed-file format');
  if (sealed.length < 1 + NONCE_BYTES + TAG_BYTES) throw new Error('sealed file too short: its tag is incomplete');
  const decipher = createDecipheriv('aes-256-gcm', subkey(key, 'file-box'), sealed.subarray(1, 1 + NONCE_BYTES), {
    authTagLength: TAG_BYTES,
  });
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(sealed.subarray(1 + NONCE_BYTES, 1 + NONCE_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(sealed.subarray(1 + NONCE_BYTES + TAG_BYTES)), decipher.final()]);
}
