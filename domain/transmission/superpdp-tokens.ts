import type { Knex } from 'knex';
import { AppError } from '../shared/app-error.js';
import { systemCaller } from '../shared/caller.js';
import type { Clock } from '../shared/clock.js';
import { open, seal } from '../shared/secret-box.js';
import { inTenantContext } from '../shared/tenant-context.js';
import type { ProviderAccountRef } from './einvoicing-provider.js';
import type { ProviderConnectionRow } from './provider-connection-store.js';
import { errorMessageOf, fetchWithTimeout, jsonBody, providerUnavailable } from './superpdp-http.js';

export interface TokenSettings {
  baseUrl: string;
  timeoutMs: number;
  appKey: Buffer;
  db: Knex;
  clock: Clock;
}

/** An access token is renewed a minute before it expires (SuperPDP's live 30 minutes). */
const MARGIN_MS = 60_000;

const sealContext = (id: string, what: string) => `provider-connection:${id}:${what}`;

/**
 * OAuth tokens of one SuperPDP connection (provider-apis.md §1.2), sealed at rest. Refresh tokens
 * rotate on every use, so a renewal runs under the connection row's lock (`for update`): a second
 * worker waits, then finds the new access token instead of spending the old refresh token again.
 */
export class SuperPdpTokens {
  constructor(private readonly s: TokenSettings) {}

  /** A usable access token; `stale` is one the provider just refused (401): it is renewed once. */
  async accessToken(account: ProviderAccountRef, stale?: string): Promise<string> {
    const caller = systemCaller(account.tenantId, account.environment);
    const current = await inTenantContext(this.s.db, caller, (tx) => this.read(tx, account.id, false));
    const usable = this.usable(current);
    if (usable && usable !== stale) return usable;
    return inTenantContext(this.s.db, caller, async (tx) => {
      const row = await this.read(tx, account.id, true);
      const fresh = this.usable(row);
      if (fresh && fresh !== stale) return fresh; // another worker renewed it while we waited
      return this.renew(tx, row);
    });
  }

  private async read(tx: Knex, id: string, lock: boolean): Promise<ProviderConnectionRow> {
    const query = tx('provider_connections').where({ id });
    if (lock) query.forUpdate();
    const row = await query.first<ProviderConnectionRow | undefined>();
    if (row?.provider !== 'superpdp') throw new AppError('NOT_FOUND', `No SuperPDP connection ${id}.`);
    return row;
  }

  private usable(row: ProviderConnectionRow): string | null {
    if (!row.access_token_sealed || !row.access_token_expires_at) return null;
    if (row.access_token_expires_at.getTime() - MARGIN_MS <= this.s.clock.now().getTime()) return null;
    return open(this.s.appKey, row.access_token_sealed, sealContext(row.id, 'access'));
  }

  /** Refresh grant when a refresh token is held (rotated), else client credentials (own company). */
  private async renew(tx: Knex, row: ProviderConnectionRow): Promise<string> {
    const clientSecret = open(this.s.appKey, row.client_secret_sealed ?? '', sealContext(row.id, 'client-secret'));
    const base = { client_id: row.client_id ?? '', client_secret: clientSecret };
    let res = row.refresh_token_sealed
      ? await this.tokenCall({
          ...base,
          grant_type: 'refresh_token',
          refresh_token: open(this.s.appKey, row.refresh_token_sealed, sealContext(row.id, 'refresh')),
        })
      : null;
    if (!res || res.status === 400 || res.status === 401) {
      // No refresh token, or it was refused (revoked, expired): the client's own credentials.
      res = await this.tokenCall({ ...base, grant_type: 'client_credentials' });
    }
    if (res.status === 429 || res.status >= 500) {
      throw providerUnavailable(`SuperPDP's token endpoint answered ${res.status}: ${await errorMessageOf(res)}`);
    }
    if (!res.ok) {
      throw new AppError(
        'PROVIDER_UNAVAILABLE',
        `SuperPDP refused the connection's credentials (${res.status}: ${await errorMessageOf(res)}); connect it again.`,
        { retryable: false },
      );
    }
    const body = await jsonBody<{ access_token?: string; expires_in?: number; refresh_token?: string }>(
      res,
      'the token request',
    );
    if (!body.access_token) throw providerUnavailable('SuperPDP returned no access_token.');
    const expiresAt = new Date(this.s.clock.now().getTime() + (body.expires_in ?? 1800) * 1000);
    await tx('provider_connections')
      .where({ id: row.id })
      .update({
        access_token_sealed: seal(this.s.appKey, body.access_token, sealContext(row.id, 'access')),
        access_token_expires_at: expiresAt,
        ...(body.refresh_token
          ? { refresh_token_sealed: seal(this.s.appKey, body.refresh_token, sealContext(row.id, 'refresh')) }
          : {}),
        token_version: row.token_version + 1,
        updated_at: this.s.clock.now(),
      });
    return body.access_token;
  }

  private tokenCall(form: Record<string, string>): Promise<Response> {
    return fetchWithTimeout(
      `${this.s.baseUrl}/oauth2/token`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams(form).toString(),
      },
      this.s.timeoutMs,
    );
  }
}

/** Seals a new connection's client secret (the CLI and the connect operation). */
export const sealClientSecret = (appKey: Buffer, connectionId: string, secret: string): string =>
  seal(appKey, secret, sealContext(connectionId, 'client-secret'));

/**
 * The sealed columns of a connection made by an OAuth code flow (onboarding): the client secret
 * and the first access and refresh tokens, under the same contexts SuperPdpTokens opens them with.
 * (A simulator connection keeps its simulated token too, without a client secret.)
 */
export function sealedConnectionTokens(
  appKey: Buffer,
  connectionId: string,
  tokens: { clientSecret: string | null; accessToken: string; refreshToken: string | null; expiresAt: Date },
) {
  return {
    client_secret_sealed: tokens.clientSecret ? sealClientSecret(appKey, connectionId, tokens.clientSecret) : null,
    access_token_sealed: seal(appKey, tokens.accessToken, sealContext(connectionId, 'access')),
    access_token_expires_at: tokens.expiresAt,
    refresh_token_sealed: tokens.refreshToken
      ? seal(appKey, tokens.refreshToken, sealContext(connectionId, 'refresh'))
      : null,
    token_version: 1,
  };
}

/** A connection's current access token as stored (the simulator's, which never rotates). */
export const openStoredAccessToken = (appKey: Buffer, connectionId: string, sealed: string): string =>
  open(appKey, sealed, sealContext(connectionId, 'access'));
