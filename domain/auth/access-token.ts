import { createHash } from 'node:crypto';
import { randomAlphanumeric } from '../shared/random.js';

/** Bearer tokens, cookie sessions and tenant login tokens: `at_` + 48 alphanumerics, kept as SHA-256. */
export const ACCESS_TOKEN_FORMAT = /^at_[A-Za-z0-9]{48}$/;

export type AccessTokenKind = 'bearer' | 'session' | 'tenant';

/** How long each kind lives; logout ends any of them at once. */
export const ACCESS_TOKEN_LIFETIME_MS: Record<AccessTokenKind, number> = {
  bearer: 30 * 24 * 3600 * 1000,
  session: 12 * 3600 * 1000,
  tenant: 24 * 3600 * 1000,
};

export function generateAccessToken(): { token: string; hash: string } {
  const token = `at_${randomAlphanumeric(48)}`;
  return { token, hash: hashToken(token) };
}

export const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');
