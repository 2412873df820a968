import { createHash, randomBytes } from 'node:crypto';

/** SHA-256 (hex) of a secret the service hands out and then only compares (state, codes). */
export const sha256Hex = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');

/** A fresh random secret: 32 bytes, base64url (43 characters, RFC 7636's verifier alphabet). */
export const randomSecret = (): string => randomBytes(32).toString('base64url');

/** RFC 7636 S256: base64url(SHA-256(verifier)). */
export const codeChallengeOf = (verifier: string): string =>
  createHash('sha256').update(verifier, 'ascii').digest('base64url');

/** The PKCE verifier's sealing context: a sealed verifier copied to another session does not open. */
export const verifierContext = (sessionId: string): string => `onboarding-session:${sessionId}:pkce`;
