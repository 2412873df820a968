import { createHash } from 'node:crypto';
import type { Environment } from '../shared/caller.js';
import type { Scope } from '../shared/operation.js';
import { randomAlphanumeric } from '../shared/random.js';

export type KeyKind = 'secret' | 'publishable';

/** Key formats of the specification ("Authentication", items 3 and 4). */
export const KEY_FORMAT: Record<KeyKind, RegExp> = {
  secret: /^sk_(live|test)_[a-zA-Z0-9]{32}$/,
  publishable: /^pk_(live|test)_[a-zA-Z0-9]{32}$/,
};

/**
 * Scopes a tenant's full key and its login token carry: everything a tenant may do. A key made with
 * another key holds at most the scopes of that key (domain/tenants/key-scopes.ts).
 */
export const TENANT_KEY_SCOPES = [
  'invoices',
  'signatures',
  'fiscal:read',
  'fiscal:write',
  'fiscal:admin',
  'keys:write',
  'profile:write',
  'webhooks:read',
  'webhooks:write',
  'sub_tenants:write',
] as const satisfies readonly Scope[];

export interface GeneratedKey {
  /** The full key: returned once, never stored. */
  key: string;
  /** Stored and shown: enough to recognise the key and to look it up with its hash. */
  prefix: string;
  hash: string;
  lastFour: string;
}

const PREFIX_LENGTH = 12; // `sk_live_` + 4 random characters

export function generateApiKey(kind: KeyKind, environment: Environment): GeneratedKey {
  const key = `${kind === 'secret' ? 'sk' : 'pk'}_${environment === 'production' ? 'live' : 'test'}_${randomAlphanumeric(32)}`;
  return { key, prefix: keyPrefix(key), hash: hashApiKey(key), lastFour: key.slice(-4) };
}

export const keyPrefix = (key: string): string => key.slice(0, PREFIX_LENGTH);

/** Keys are stored as their SHA-256 (hex); the raw key is never stored or logged. */
export const hashApiKey = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

/** The environment a key works in comes from its prefix only. */
export const environmentOfKey = (key: string): Environment => (/^[sp]k_live_/.test(key) ? 'production' : 'sandbox');
