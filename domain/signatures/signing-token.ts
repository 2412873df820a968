import { createHash, createHmac } from 'node:crypto';
import { subkey } from '../shared/app-subkeys.js';
import type { Config } from '../shared/config.js';
import { publicBaseUrlOf } from '../users/index.js';

/**
 * A signer's signing-page token: an HMAC of the signer's id under a key derived from APP_KEY.
 * Unguessable without APP_KEY, and the same every time it is derived, so the signing URL can be
 * shown again (GET, reminders) while the database keeps only its SHA-256 (`signing_token_hash`),
 * by which the signing page finds the signer.
 */
export function signingTokenOf(config: Config, signerId: string): string {
  if (!config.appKey) throw new Error('APP_KEY is not set: signing links cannot be made');
  return createHmac('sha256', subkey(config.appKey, 'signed-token:signing-page')).update(signerId).digest('base64url');
}

export const signingTokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

/** The signer's own signing page. */
export const signingUrlOf = (config: Config, signerId: string): string =>
  `${publicBaseUrlOf(config)}/sign/${signingTokenOf(config, signerId)}`;
