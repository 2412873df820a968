import type { OpenapiConfig, OpenapiTokenView } from '../../../schemas/signature-provider-admin.js';
import { AppError } from '../../shared/app-error.js';
import {
  type OpenapiAccount,
  type OpenapiAccountConfig,
  type OpenapiConfigRow,
  type OpenapiToken,
  tokenOf,
} from './openapi-account.js';
import { assertOk, jsonOf, type OpenapiAnswer, openapiCall, providerUnavailable } from './openapi-http.js';
import { hintOf, serviceTokenOf, tokenIdOf } from './openapi-token-store.js';

/**
 * The account's tokens at Openapi's OAuth host (provider-apis.md §2.2), for the admin routes, and
 * how an admin sees them and the configuration: by id and hint, never whole.
 */

const TOKEN_ID = /^tok_[0-9a-f]{24}$/;

const unknownToken = (id: string) =>
  new AppError(
    'NOT_FOUND',
    `The Openapi account has no token ${JSON.stringify(id)} (GET /v1/admin/openapi/tokens lists them).`,
  );

/**
 * A call about one token (`/tokens/{token}`): with the account's HTTP Basic, or with a refresh token
 * as bearer. Its description names the route, not the token, which must stay out of error messages
 * and logs.
 */
export function tokenCall(
  account: OpenapiAccount,
  config: OpenapiAccountConfig,
  method: 'GET' | 'DELETE' | 'PATCH',
  token: string,
  refreshToken?: string,
): Promise<OpenapiAnswer> {
  const authorization = refreshToken
    ? `Bearer ${refreshToken}`
    : `Basic ${Buffer.from(`${config.email}:${config.apiKey}`).toString('base64')}`;
  return openapiCall(
    account.http,
    `${config.hosts.oauth}/tokens/${encodeURIComponent(token)}`,
    { method, headers: { authorization, accept: 'application/json' } },
    `${method} /tokens/{token}`,
  );
}

/** Every token of the account (`GET /tokens`). */
export async function listProviderTokens(
  account: OpenapiAccount,
  config: OpenapiAccountConfig,
): Promise<OpenapiToken[]> {
  const answer = await account.oauthCall(config, 'GET', '/tokens');
  assertOk(answer, 'the token list');
  const data = jsonOf(answer, 'the token list');
  if (!Array.isArray(data)) throw providerUnavailable("Openapi's answer to the token list is not a list.");
  return data.map(tokenOf);
}

/**
 * The token an id names, found by listing the account's tokens: Openapi knows tokens by their value
 * only. An id that is not of our form names nothing (404, without asking Openapi).
 */
export async function findProviderToken(
  account: OpenapiAccount,
  id: string,
): Promise<{ config: OpenapiAccountConfig; token: OpenapiToken }> {
  if (!TOKEN_ID.test(id)) throw unknownToken(id);
  const config = await account.config();
  const token = (await listProviderTokens(account, config)).find((t) => tokenIdOf(t.token) === id);
  if (!token) throw unknownToken(id);
  return { config, token };
}

const iso = (at: Date | null) => (at ? at.toISOString() : null);

export function tokenView(
  token: OpenapiToken,
  serviceToken: string | null,
  refreshable: ReadonlySet<string>,
): OpenapiTokenView {
  const id = tokenIdOf(token.token);
  return {
    id,
    hint: hintOf(token.token),
    name: token.name,
    scopes: token.scopes,
    expires_at: iso(token.expiresAt),
    created_at: iso(token.createdAt),
    service_token: token.token === serviceToken,
    refreshable: refreshable.has(id) || token.refreshToken !== null,
  };
}

export function configView(appKey: Buffer, row: OpenapiConfigRow | null): OpenapiConfig {
  if (!row) {
    return {
      configured: false,
      account_email: null,
      test_mode: false,
      token: null,
      verified_at: null,
      verification: null,
      updated_at: null,
    };
  }
  const token = serviceTokenOf(appKey, row);
  return {
    configured: true,
    account_email: row.account_email,
    test_mode: row.test_mode,
    token: token ? { hint: hintOf(token), expires_at: iso(row.token_expires_at), scopes: row.token_scopes } : null,
    verified_at: iso(row.verified_at),
    verification: (row.verification as OpenapiConfig['verification']) ?? null,
    updated_at: iso(row.updated_at),
  };
}
