import type { Knex } from 'knex';
import { type BatchLimits, MicroBatcher } from '../shared/batch-queue.js';
import type { Environment } from '../shared/caller.js';
import type { KeyKind } from '../tenants/index.js';

/** The state of a credential's owner and its last recorded use, as both lookups return it. */
interface OwnerState {
  tenant_kind: 'platform' | 'workspace';
  tenant_active: boolean;
  kyb_status: string;
  is_partner: boolean;
  user_active: boolean | null;
  permissions: string[];
  last_used_at: Date | null;
  last_used_ip: string | null;
}

/** What `auth_find_api_keys` returns for one key (migrations/20261122005000_batch_auth_lookups.ts). */
export interface KeyRow extends OwnerState {
  id: string;
  tenant_id: string;
  user_id: string | null;
  company_id: string | null;
  sub_tenant_id: string | null;
  kind: KeyKind;
  environment: Environment;
  scopes: string[];
  status: 'active' | 'revoked';
  expires_at: Date | null;
  kyc_completed: boolean;
  /** false while an admin has disabled the company the key is restricted to. */
  company_active: boolean;
}

/** What `auth_find_access_tokens` returns for one token. */
export interface TokenRow extends OwnerState {
  id: string;
  tenant_id: string;
  user_id: string | null;
  kind: 'bearer' | 'session' | 'tenant';
  environment: Environment | null;
  expires_at: Date;
  revoked_at: Date | null;
}

/**
 * Two lookups in flight at most per pool; requests that arrive meanwhile are answered by the next
 * statement, all together. Under a burst this turns one round trip per request into one per batch;
 * a lone request still runs at once.
 */
const LIMITS: BatchLimits = { maxInFlight: 2, maxBatch: 200 };

interface KeyLookup {
  prefix: string;
  hash: string;
}

type Found<R> = R & { lookup_hash: string };

/** Rows by the hash they answer; requests with the same credential share one row object. */
const byHash = <R>(rows: Found<R>[]): Map<string, R> => new Map(rows.map((row) => [row.lookup_hash, row]));

class CredentialLookups {
  readonly apiKeys: MicroBatcher<KeyLookup, KeyRow | undefined>;
  readonly accessTokens: MicroBatcher<string, TokenRow | undefined>;

  constructor(db: Knex) {
    this.apiKeys = new MicroBatcher(async (lookups) => {
      const { rows } = await db.raw<{ rows: Found<KeyRow>[] }>(
        'select * from auth_find_api_keys(?::text[], ?::text[])',
        [lookups.map((lookup) => lookup.prefix), lookups.map((lookup) => lookup.hash)],
      );
      const found = byHash(rows);
      return lookups.map((lookup) => found.get(lookup.hash));
    }, LIMITS);
    this.accessTokens = new MicroBatcher(async (hashes) => {
      const { rows } = await db.raw<{ rows: Found<TokenRow>[] }>('select * from auth_find_access_tokens(?::text[])', [
        hashes,
      ]);
      const found = byHash(rows);
      return hashes.map((hash) => found.get(hash));
    }, LIMITS);
  }
}

const perPool = new WeakMap<Knex, CredentialLookups>();

function lookupsOf(db: Knex): CredentialLookups {
  let lookups = perPool.get(db);
  if (!lookups) {
    lookups = new CredentialLookups(db);
    perPool.set(db, lookups);
  }
  return lookups;
}

/** The API key with this prefix and SHA-256 hash, with its owner's state (never by the raw key). */
export const findApiKey = (db: Knex, prefix: string, hash: string): Promise<KeyRow | undefined> =>
  lookupsOf(db).apiKeys.load({ prefix, hash });

/** The access token or session with this SHA-256 hash, with its owner's state. */
export const findAccessToken = (db: Knex, hash: string): Promise<TokenRow | undefined> =>
  lookupsOf(db).accessTokens.load(hash);
