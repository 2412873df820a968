import { hkdfSync } from 'node:crypto';

/**
 * What each key derived from APP_KEY is for. One key never serves two algorithms or two uses: a
 * MAC made for a download link cannot be replayed as something else, and the AES key never signs.
 */
export type SubkeyPurpose = 'secret-box' | 'file-box' | `signed-token:${string}`;

const derived = new WeakMap<Buffer, Map<string, Buffer>>();

/** HKDF-SHA256 of APP_KEY for one purpose (RFC 5869; the purpose is the `info`), cached per key. */
export function subkey(appKey: Buffer, purpose: SubkeyPurpose): Buffer {
  let keys = derived.get(appKey);
  if (!keys) {
    keys = new Map();
    derived.set(appKey, keys);
  }
  let key = keys.get(purpose);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', appKey, Buffer.alloc(0), `einvoice ${purpose}`, 32));
    keys.set(purpose, key);
  }
  return key;
}
