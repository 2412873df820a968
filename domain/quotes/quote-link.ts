import { createHash, randomBytes } from 'node:crypto';
import type { Config } from '../shared/config.js';
import { open, seal } from '../shared/secret-box.js';
import { publicBaseUrlOf } from '../users/index.js';
import type { QuoteRow } from './quote-row.js';

/** The buyer's link works for 90 days from when it was made (origin-notes item 6). */
export const PUBLIC_LINK_TTL_DAYS = 90;

export const quoteTokenHash = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/**
 * A fresh public link: 32 random bytes (base64url). Its SHA-256 finds the quote; the token itself
 * is kept sealed under APP_KEY (bound to the quote's id) so the quote can show its `public_url`.
 */
export function newPublicLink(config: Config, quoteId: string, now: Date) {
  const token = randomBytes(32).toString('base64url');
  return {
    token,
    columns: {
      public_token_hash: quoteTokenHash(token),
      public_token_sealed: seal(appKeyOf(config), token, `quote:${quoteId}`),
      public_link_expires_at: new Date(now.getTime() + PUBLIC_LINK_TTL_DAYS * 86_400_000),
      public_link_revoked_at: null,
    },
  };
}

/** The page's address, while the link is live (made, not revoked, not past its 90 days). */
export function publicUrlOf(config: Config, quote: QuoteRow, now: Date): string | null {
  if (!quote.public_token_sealed || quote.public_link_revoked_at || !quote.public_link_expires_at) return null;
  if (quote.public_link_expires_at.getTime() <= now.getTime()) return null;
  const token = open(appKeyOf(config), quote.public_token_sealed, `quote:${quote.id}`);
  return `${publicBaseUrlOf(config)}/quote/${token}`;
}

function appKeyOf(config: Config): Buffer {
  if (!config.appKey) throw new Error('APP_KEY is not set: quote links cannot be sealed');
  return config.appKey;
}
