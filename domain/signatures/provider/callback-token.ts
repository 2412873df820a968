import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { subkey } from '../../shared/app-subkeys.js';
import type { Config } from '../../shared/config.js';
import { publicBaseUrlOf } from '../../users/index.js';

/**
 * The opaque token in an Openapi request's callback URL (provider-apis.md §2.5, [OURS]): the
 * provider signs nothing, so the URL itself carries a secret only this service can make, an HMAC of
 * the request id under a key derived from APP_KEY. The database keeps its SHA-256.
 */
export function callbackTokenOf(config: Config, requestId: string): string {
  if (!config.appKey) throw new Error('APP_KEY is not set: callback URLs cannot be made');
  return createHmac('sha256', subkey(config.appKey, 'signed-token:signature-callback'))
    .update(requestId)
    .digest('base64url');
}

export const callbackTokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

export const callbackUrlOf = (config: Config, requestId: string): string =>
  `${publicBaseUrlOf(config)}/webhooks/openapi/signature?t=${callbackTokenOf(config, requestId)}`;

/** Whether a callback's token is the request's, compared in constant time. */
export function callbackTokenMatches(config: Config, requestId: string, given: string): boolean {
  const expected = createHash('sha256').update(callbackTokenOf(config, requestId)).digest();
  return timingSafeEqual(expected, createHash('sha256').update(given).digest());
}
