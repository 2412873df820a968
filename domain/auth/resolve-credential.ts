import type { Knex } from 'knex';
import { AppError } from '../shared/app-error.js';
import type { Caller, Environment } from '../shared/caller.js';
import {
  environmentOfKey,
  hashApiKey,
  KEY_FORMAT,
  type KeyKind,
  keyPrefix,
  TENANT_KEY_SCOPES,
} from '../tenants/index.js';
import { ACCESS_TOKEN_FORMAT, hashToken } from './access-token.js';
import { findAccessToken, findApiKey } from './credential-lookups.js';

export interface ResolveOptions {
  ip: string | null;
  now: Date;
  /** Routes that serve one environment only (the `/v1/sandbox` set). */
  requiredEnvironment?: Environment;
}

const HEADER_HINT: Record<KeyKind, string> = {
  secret: 'X-API-Key takes a secret key: sk_live_ or sk_test_ followed by 32 letters and digits.',
  publishable: 'X-Publishable-Key takes a publishable key: pk_live_ or pk_test_ followed by 32 letters and digits.',
};

/**
 * The specification's secret-key validation, in its order ("Authentication"): (1) the header was
 * read by the caller of this function; (2) the format, before any database access; (3) SHA-256;
 * (4) lookup by prefix and hash, never by the raw key; (5) status, expiry included; (6) environment
 * consistency; then the tenant is active; (7) KYB (tenants) or KYC (users) in production; (8)
 * last-used time and source IP. Publishable keys follow the same path with their own format.
 */
export async function resolveApiKey(db: Knex, kind: KeyKind, key: string, options: ResolveOptions): Promise<Caller> {
  if (!KEY_FORMAT[kind].test(key)) {
    throw new AppError('INVALID_API_KEY_FORMAT', `The key is not well-formed. ${HEADER_HINT[kind]}`);
  }
  const hash = hashApiKey(key);
  const row = await findApiKey(db, keyPrefix(key), hash);
  if (!row || row.kind !== kind) throw new AppError('API_KEY_INVALID', 'This API key does not exist.');
  if (row.status === 'revoked') throw new AppError('API_KEY_REVOKED', 'This API key was revoked.');
  if (row.expires_at && row.expires_at.getTime() <= options.now.getTime()) {
    throw new AppError('API_KEY_REVOKED', `This API key expired at ${row.expires_at.toISOString()}.`);
  }
  const environment = environmentOfKey(key);
  if (row.environment !== environment) {
    throw new AppError('API_KEY_ENVIRONMENT_MISMATCH', 'The key prefix does not match the environment of the key.');
  }
  if (options.requiredEnvironment && options.requiredEnvironment !== environment) {
    throw new AppError(
      'API_KEY_ENVIRONMENT_MISMATCH',
      `This route serves the ${options.requiredEnvironment} environment only; use a ${options.requiredEnvironment === 'sandbox' ? 'sk_test_' : 'sk_live_'} key.`,
    );
  }
  checkOwnerActive(row);
  if (row.company_active === false) {
    throw new AppError('COMPANY_DISABLED', "This key's company is disabled. Contact support.");
  }
  if (environment === 'production') checkVerified(row);
  if (isStale(row, options) && firstToTouch(row)) await db.raw('select auth_touch_api_key(?, ?)', [row.id, options.ip]);

  const credential = { type: kind === 'secret' ? 'secret_key' : 'publishable_key', id: row.id } as const;
  if (kind === 'publishable') {
    return {
      kind: 'publishable',
      tenantId: row.tenant_id,
      environment,
      scopes: [],
      credential,
      isPartner: row.is_partner,
    };
  }
  if (row.tenant_kind === 'platform') {
    return {
      kind: 'tenant',
      tenantId: row.tenant_id,
      subTenantId: row.sub_tenant_id,
      environment,
      scopes: row.scopes,
      credential,
      isPartner: row.is_partner,
    };
  }
  return {
    kind: 'user',
    tenantId: row.tenant_id,
    userId: row.user_id,
    environment,
    scopes: row.scopes,
    credential,
    permissions: row.permissions,
    companyId: row.company_id,
  };
}

/**
 * A bearer token or cookie session of a user, or a tenant's login token. Unknown, expired and
 * revoked tokens are all 401: a client cannot tell a revoked token from one that never existed.
 */
export async function resolveAccessToken(
  db: Knex,
  token: string,
  expected: 'bearer' | 'session',
  options: ResolveOptions,
): Promise<Caller> {
  const invalid = () =>
    new AppError(
      'UNAUTHENTICATED',
      expected === 'session'
        ? 'Your session has ended. Sign in again.'
        : 'The access token is invalid, expired or revoked. Sign in again for a new one.',
    );
  if (!ACCESS_TOKEN_FORMAT.test(token)) throw invalid();
  const row = await findAccessToken(db, hashToken(token));
  const kindMatches = expected === 'session' ? row?.kind === 'session' : row?.kind !== 'session';
  if (!row || !kindMatches || row.revoked_at || row.expires_at.getTime() <= options.now.getTime()) throw invalid();
  checkOwnerActive(row);
  if (row.kind === 'tenant' && row.environment === 'production') checkVerified(row);
  if (isStale(row, options) && firstToTouch(row)) {
    await db.raw('select auth_touch_access_token(?, ?)', [row.id, options.ip]);
  }

  if (row.kind === 'tenant') {
    return {
      kind: 'tenant',
      tenantId: row.tenant_id,
      environment: row.environment,
      scopes: TENANT_KEY_SCOPES,
      credential: { type: 'tenant_token', id: row.id },
      isPartner: row.is_partner,
    };
  }
  return {
    kind: 'user',
    tenantId: row.tenant_id,
    userId: row.user_id,
    environment: null,
    scopes: ['invoices', 'signatures'],
    credential: { type: row.kind === 'session' ? 'session' : 'access_token', id: row.id },
    permissions: row.permissions,
  };
}

/** Step 8 writes when the recorded use is over a minute old or from another IP (as the SQL re-checks). */
const TOUCH_INTERVAL_MS = 60_000;
function isStale(row: { last_used_at: Date | null; last_used_ip: string | null }, options: ResolveOptions): boolean {
  return (
    !row.last_used_at ||
    options.now.getTime() - row.last_used_at.getTime() >= TOUCH_INTERVAL_MS ||
    row.last_used_ip !== options.ip
  );
}

/**
 * Concurrent requests with one credential share its row (one batched lookup): the first of them
 * records the use, the others need not write the same thing again.
 */
const touched = new WeakSet<object>();
function firstToTouch(row: object): boolean {
  if (touched.has(row)) return false;
  touched.add(row);
  return true;
}

function checkOwnerActive(row: { tenant_active: boolean; user_active: boolean | null; tenant_kind: string }): void {
  if (row.user_active === false) {
    throw new AppError('ACCOUNT_DISABLED', 'This account is disabled. Contact support.');
  }
  if (!row.tenant_active) {
    throw new AppError('TENANT_DISABLED', 'This tenant is deactivated. Contact support to reactivate it.');
  }
}

/** Step 7: production needs a verified tenant (KYB) or, for a user, a company whose KYC completed. */
function checkVerified(row: { tenant_kind: string; kyb_status: string; kyc_completed?: boolean }): void {
  if (row.tenant_kind === 'platform' && row.kyb_status !== 'verified') {
    throw new AppError(
      'KYC_REQUIRED',
      `Production keys work once the tenant's KYB is verified (status: ${row.kyb_status}). Sandbox keys work meanwhile.`,
      { body: { kyb_status: row.kyb_status } },
    );
  }
  if (row.tenant_kind === 'workspace' && row.kyc_completed === false) {
    throw new AppError(
      'KYC_REQUIRED',
      "Production keys work once the KYC of the key's company is completed (POST /api/v1/companies/{id}/kyc). Sandbox keys work meanwhile.",
    );
  }
}
