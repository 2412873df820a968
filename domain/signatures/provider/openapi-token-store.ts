import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { OpenapiVerification } from '../../../schemas/signature-provider-admin.js';
import { systemCaller } from '../../shared/caller.js';
import type { Deps } from '../../shared/deps.js';
import { inTenantContext } from '../../shared/tenant-context.js';
import { type OpenapiConfigRow, type OpenapiToken, openOpenapiSecret, sealOpenapiSecret } from './openapi-account.js';

/**
 * SQL of the admin routes on the two system-only tables (migrations/20261127000000_signature_provider.ts):
 * `signature_provider_config` (the operator's account) and `signature_provider_tokens` (tokens made
 * through the admin routes, with their refresh tokens). Secrets are sealed under APP_KEY, each with
 * its own context, and opened only here and in OpenapiAccount.
 */

/** Both tables are visible to the system only: a short transaction as the system. */
export const asSystem = <T>(deps: Deps, run: (tx: Knex.Transaction) => Promise<T>): Promise<T> =>
  inTenantContext(deps.db, systemCaller(), run);

export function appKeyOf(deps: Deps): Buffer {
  if (!deps.config.appKey) throw new Error('APP_KEY is not set: the signature provider cannot be used');
  return deps.config.appKey;
}

/**
 * The id the admin routes give a token: `tok_` + 24 hex characters of its SHA-256. The token itself
 * is a bearer credential and must stay out of URLs, access logs and browser history.
 */
export const tokenIdOf = (token: string): string =>
  `tok_${createHash('sha256').update(token, 'utf8').digest('hex').slice(0, 24)}`;

/** The last 4 characters, to recognise a token without showing it. */
export const hintOf = (token: string): string => token.slice(-4);

/** The service's own bearer token, opened; null when there is none. */
export const serviceTokenOf = (appKey: Buffer, row: OpenapiConfigRow | null): string | null =>
  row?.token_sealed ? openOpenapiSecret(appKey, 'token', row.token_sealed) : null;

export interface SavedConfig {
  accountEmail: string;
  apiKey: string;
  testMode: boolean | undefined;
  token: string | undefined;
  userId: string | null;
  now: Date;
}

/**
 * Saves the account under the row's lock. The service's token goes with the credentials it was made
 * for: a new e-mail, API key or host drops it (unless a token is given with them), and any change of
 * credentials or token drops the last verification.
 */
export async function saveConfigRow(tx: Knex, appKey: Buffer, input: SavedConfig): Promise<OpenapiConfigRow> {
  const existing = await tx('signature_provider_config').where({ id: 1 }).forUpdate().first<OpenapiConfigRow>();
  const testMode = input.testMode ?? existing?.test_mode ?? false;
  const sameAccount =
    !!existing &&
    existing.account_email === input.accountEmail &&
    existing.test_mode === testMode &&
    savedApiKey(appKey, existing) === input.apiKey;
  const token =
    input.token !== undefined
      ? { token_sealed: sealOpenapiSecret(appKey, 'token', input.token), token_expires_at: null, token_scopes: [] }
      : sameAccount
        ? {}
        : { token_sealed: null, token_expires_at: null, token_scopes: [] };
  const unverified = sameAccount && input.token === undefined ? {} : { verified_at: null, verification: null };
  const values = {
    account_email: input.accountEmail,
    api_key_sealed: sealOpenapiSecret(appKey, 'api-key', input.apiKey),
    test_mode: testMode,
    ...token,
    ...unverified,
    updated_by: input.userId,
    updated_at: input.now,
  };
  const [row] = await tx('signature_provider_config')
    .insert({ id: 1, ...values })
    .onConflict('id')
    .merge(Object.keys(values))
    .returning<OpenapiConfigRow[]>('*');
  return row;
}

/**
 * Records a verification. What it read of the token (scopes, expiry) is kept only if the service
 * still uses that token: an admin may have saved another one while the check ran.
 */
export async function recordVerification(
  tx: Knex,
  appKey: Buffer,
  checked: { token: string | null; scopes: string[]; expiresAt: Date | null },
  verification: OpenapiVerification,
): Promise<void> {
  const row = await tx('signature_provider_config').where({ id: 1 }).forUpdate().first<OpenapiConfigRow>();
  if (!row) return;
  const sameToken = checked.token !== null && serviceTokenOf(appKey, row) === checked.token;
  await tx('signature_provider_config')
    .where({ id: 1 })
    .update({
      verification: JSON.stringify(verification),
      verified_at: verification.ok ? verification.checked_at : null,
      ...(sameToken
        ? { token_scopes: checked.scopes, token_expires_at: checked.expiresAt ?? row.token_expires_at }
        : {}),
    });
}

/** After a refresh or a deletion: the service's token, if it was `old`, becomes `next` (null: none, mint one). */
export async function replaceServiceToken(
  tx: Knex,
  appKey: Buffer,
  old: string,
  next: OpenapiToken | null,
  now: Date,
): Promise<boolean> {
  const row = await tx('signature_provider_config').where({ id: 1 }).forUpdate().first<OpenapiConfigRow>();
  if (serviceTokenOf(appKey, row ?? null) !== old) return false;
  await tx('signature_provider_config')
    .where({ id: 1 })
    .update(
      next
        ? {
            token_sealed: sealOpenapiSecret(appKey, 'token', next.token),
            token_expires_at: next.expiresAt,
            token_scopes: next.scopes,
            updated_at: now,
          }
        : { token_sealed: null, token_expires_at: null, token_scopes: [], verified_at: null, updated_at: now },
    );
  return true;
}

/** The saved API key; null when it no longer opens (APP_KEY was replaced): saving again is the fix. */
function savedApiKey(appKey: Buffer, row: OpenapiConfigRow): string | null {
  try {
    return openOpenapiSecret(appKey, 'api-key', row.api_key_sealed);
  } catch {
    return null;
  }
}

/** Ids of the stored tokens whose refresh token the service holds. */
export async function refreshableTokenIds(tx: Knex): Promise<Set<string>> {
  const rows = await tx('signature_provider_tokens')
    .whereNotNull('refresh_token_sealed')
    .select<{ id: string }[]>('id');
  return new Set(rows.map((r) => r.id));
}

/** The refresh token kept for a token id, opened; null when the service holds none. */
export async function storedRefreshToken(tx: Knex, appKey: Buffer, id: string): Promise<string | null> {
  const row = await tx('signature_provider_tokens')
    .where({ id })
    .first<{ refresh_token_sealed: string | null } | undefined>('refresh_token_sealed');
  return row?.refresh_token_sealed ? openOpenapiSecret(appKey, 'refresh', row.refresh_token_sealed) : null;
}

/** Keeps a token made or refreshed through the admin routes, with its refresh token, both sealed. */
export async function storeToken(tx: Knex, appKey: Buffer, token: OpenapiToken, now: Date): Promise<void> {
  const values = {
    token_sealed: sealOpenapiSecret(appKey, 'token', token.token),
    refresh_token_sealed: token.refreshToken ? sealOpenapiSecret(appKey, 'refresh', token.refreshToken) : null,
    name: token.name,
    scopes: token.scopes,
    expires_at: token.expiresAt,
    updated_at: now,
  };
  await tx('signature_provider_tokens')
    .insert({ id: tokenIdOf(token.token), ...values, created_at: now })
    .onConflict('id')
    .merge(Object.keys(values));
}

export async function deleteStoredToken(tx: Knex, id: string): Promise<void> {
  await tx('signature_provider_tokens').where({ id }).delete();
}
