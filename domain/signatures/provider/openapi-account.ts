import type { Knex } from 'knex';
import { AppError } from '../../shared/app-error.js';
import { systemCaller } from '../../shared/caller.js';
import type { Clock } from '../../shared/clock.js';
import { open, seal } from '../../shared/secret-box.js';
import { inTenantContext } from '../../shared/tenant-context.js';
import {
  assertOk,
  jsonOf,
  type OpenapiAnswer,
  type OpenapiHosts,
  type OpenapiHttpSettings,
  openapiCall,
  openapiHostsOf,
  providerUnavailable,
} from './openapi-http.js';

/** The configuration row (signature_provider_config), secrets still sealed. */
export interface OpenapiConfigRow {
  account_email: string;
  api_key_sealed: string;
  test_mode: boolean;
  token_sealed: string | null;
  token_expires_at: Date | null;
  token_scopes: string[];
  verified_at: Date | null;
  verification: Record<string, unknown> | null;
  updated_by: string | null;
  created_at: Date;
  updated_at: Date;
}

/** The configuration opened: what a call needs. */
export interface OpenapiAccountConfig {
  email: string;
  apiKey: string;
  testMode: boolean;
  hosts: OpenapiHosts;
}

const sealContext = (what: string) => `signature-provider:openapi:${what}`;
export const sealOpenapiSecret = (appKey: Buffer, what: 'api-key' | 'token' | 'refresh', value: string) =>
  seal(appKey, value, sealContext(what));
export const openOpenapiSecret = (appKey: Buffer, what: 'api-key' | 'token' | 'refresh', sealed: string) =>
  open(appKey, sealed, sealContext(what));

/** A bearer token is minted again a day before it expires. */
const MARGIN_MS = 24 * 60 * 60 * 1000;
/** Tokens the service mints for itself live a year, the longest Openapi allows. */
export const TOKEN_TTL_SECONDS = 365 * 24 * 60 * 60;

/**
 * The scopes the service's token must hold on the eSignature host (provider-apis.md §2.2): create a
 * request, read requests (detail, signed document, audit). Deleting (cancelled and expired requests)
 * is asked for too but not required: without it those stay at the provider until it purges them.
 */
export const requiredScopes = (hosts: OpenapiHosts): string[] => {
  const host = new URL(hosts.esignature).host;
  return [`POST:${host}/EU-SES`, `GET:${host}/signatures`];
};
export const optionalScopes = (hosts: OpenapiHosts): string[] => [
  `DELETE:${new URL(hosts.esignature).host}/signatures`,
];

/** Whether a granted scope (`METHOD:host/path`, `*` allowed for the method and at the end) covers a needed one. */
export function scopeCovers(granted: string, needed: string): boolean {
  const [gMethod, ...gRest] = granted.split(':');
  const [nMethod, ...nRest] = needed.split(':');
  if (gMethod !== '*' && gMethod.toUpperCase() !== nMethod.toUpperCase()) return false;
  const gPath = gRest.join(':');
  const nPath = nRest.join(':');
  if (gPath.endsWith('*')) return nPath.startsWith(gPath.slice(0, -1));
  return nPath === gPath || nPath.startsWith(`${gPath}/`);
}

export const missingScopes = (granted: readonly string[], needed: readonly string[]): string[] =>
  needed.filter((n) => !granted.some((g) => scopeCovers(g, n)));

/** A token as Openapi describes it (`POST /tokens`, `GET /tokens`): the fields we read. */
export interface OpenapiToken {
  token: string;
  name: string | null;
  scopes: string[];
  expiresAt: Date | null;
  createdAt: Date | null;
  refreshToken: string | null;
}

/** Openapi's dates: Unix seconds, milliseconds or ISO text. */
export function dateOf(value: unknown): Date | null {
  if (typeof value === 'number' && Number.isFinite(value)) return new Date(value < 1e12 ? value * 1000 : value);
  if (typeof value === 'string' && value) {
    const at = /^\d+$/.test(value) ? dateOf(Number(value)) : new Date(value);
    return at && !Number.isNaN(at.getTime()) ? at : null;
  }
  return null;
}

export function tokenOf(raw: unknown): OpenapiToken {
  const t = (raw ?? {}) as Record<string, unknown>;
  if (typeof t.token !== 'string' || !t.token) throw providerUnavailable('Openapi returned a token without its value.');
  return {
    token: t.token,
    name: typeof t.name === 'string' ? t.name : null,
    scopes: Array.isArray(t.scopes) ? t.scopes.filter((s): s is string => typeof s === 'string') : [],
    expiresAt: dateOf(t.expireAt ?? t.expire ?? t.expiresAt),
    createdAt: dateOf(t.createdAt),
    refreshToken: typeof t.refreshToken === 'string' ? t.refreshToken : null,
  };
}

/**
 * The Openapi account the operator configured (`/v1/admin/openapi/config`): its API key talks to the
 * OAuth host (HTTP Basic); its bearer token, minted by the service when it has none, talks to the
 * eSignature host. A token refused with 401 is minted again, once, under the row's lock, so two
 * workers do not both mint.
 */
export class OpenapiAccount {
  constructor(
    private readonly s: {
      db: Knex;
      appKey: Buffer | null;
      clock: Clock;
      http: OpenapiHttpSettings;
      /** OPENAPI_BASE_URL: one address for both hosts; null or absent: Openapi's own. */
      baseUrl?: string | null;
    },
  ) {}

  get http(): OpenapiHttpSettings {
    return this.s.http;
  }

  private key(): Buffer {
    if (!this.s.appKey) throw new Error('APP_KEY is not set: the signature provider cannot be used');
    return this.s.appKey;
  }

  /** The configuration row, or null before an operator saved one. */
  row(lock = false): Promise<OpenapiConfigRow | null> {
    return inTenantContext(this.s.db, systemCaller(), async (tx) => readConfigRow(tx, lock));
  }

  /** The opened configuration; 409 SIGNATURE_PROVIDER_NOT_CONFIGURED before one was saved. */
  async config(): Promise<OpenapiAccountConfig> {
    const row = await this.row();
    if (!row) throw notConfigured();
    return this.open(row);
  }

  open(row: OpenapiConfigRow): OpenapiAccountConfig {
    return {
      email: row.account_email,
      apiKey: openOpenapiSecret(this.key(), 'api-key', row.api_key_sealed),
      testMode: row.test_mode,
      hosts: openapiHostsOf(row.test_mode, this.s.baseUrl ?? null),
    };
  }

  /** A call to the OAuth host with the account's e-mail and API key. */
  async oauthCall(config: OpenapiAccountConfig, method: string, path: string, body?: unknown): Promise<OpenapiAnswer> {
    const basic = Buffer.from(`${config.email}:${config.apiKey}`).toString('base64');
    return openapiCall(
      this.s.http,
      `${config.hosts.oauth}${path}`,
      {
        method,
        headers: {
          authorization: `Basic ${basic}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      },
      `${method} ${path}`,
    );
  }

  /** Mints a token with the service's scopes (`POST /tokens`). */
  async mint(
    config: OpenapiAccountConfig,
    request: { name: string; scopes: string[]; ttl: number },
  ): Promise<OpenapiToken> {
    const answer = await this.oauthCall(config, 'POST', '/tokens', request);
    if (answer.status === 401 || answer.status === 403) {
      throw new AppError(
        'PROVIDER_REFUSED',
        `Openapi refused the account's e-mail and API key (${answer.status}): configure them again.`,
      );
    }
    assertOk(answer, 'the token creation');
    return tokenOf(jsonOf(answer, 'the token creation'));
  }

  /**
   * A call to the eSignature host with the service's bearer token; a 401 mints a new token and
   * tries once more. `once`: no retry of a failed call within it (a creation, whose lost answer
   * the caller looks up before asking again).
   */
  async esignatureCall(
    method: string,
    path: string,
    init: RequestInit = {},
    options: { once?: boolean } = {},
  ): Promise<OpenapiAnswer> {
    const config = await this.config();
    const http = options.once ? { ...this.s.http, tries: 1 } : this.s.http;
    let token = await this.bearer(config);
    for (let attempt = 1; ; attempt += 1) {
      const answer = await openapiCall(
        http,
        `${config.hosts.esignature}${path}`,
        { ...init, method, headers: { accept: 'application/json', ...init.headers, authorization: `Bearer ${token}` } },
        `${method} ${path}`,
      );
      if (answer.status !== 401 || attempt > 1) return answer;
      token = await this.bearer(config, token);
    }
  }

  /** A usable bearer token; `stale` is one just refused (401): a new one is minted, once. */
  async bearer(config: OpenapiAccountConfig, stale?: string): Promise<string> {
    const usable = this.usable(await this.row());
    if (usable && usable !== stale) return usable;
    return inTenantContext(this.s.db, systemCaller(), async (tx) => {
      const row = await readConfigRow(tx, true);
      if (!row) throw notConfigured();
      const fresh = this.usable(row);
      if (fresh && fresh !== stale) return fresh; // another worker minted it while we waited
      const scopes = [...requiredScopes(config.hosts), ...optionalScopes(config.hosts)];
      const minted = await this.mint(config, { name: 'einvoice-service', scopes, ttl: TOKEN_TTL_SECONDS });
      const now = this.s.clock.now();
      await tx('signature_provider_config')
        .where({ id: 1 })
        .update({
          token_sealed: sealOpenapiSecret(this.key(), 'token', minted.token),
          token_expires_at: minted.expiresAt ?? new Date(now.getTime() + TOKEN_TTL_SECONDS * 1000),
          token_scopes: minted.scopes.length ? minted.scopes : scopes,
          updated_at: now,
        });
      return minted.token;
    });
  }

  private usable(row: OpenapiConfigRow | null): string | null {
    if (!row?.token_sealed) return null;
    if (row.token_expires_at && row.token_expires_at.getTime() - MARGIN_MS <= this.s.clock.now().getTime()) return null;
    return openOpenapiSecret(this.key(), 'token', row.token_sealed);
  }
}

export async function readConfigRow(tx: Knex, lock = false): Promise<OpenapiConfigRow | null> {
  const query = tx('signature_provider_config').where({ id: 1 });
  if (lock) query.forUpdate();
  return (await query.first<OpenapiConfigRow | undefined>()) ?? null;
}

export const notConfigured = () =>
  new AppError(
    'SIGNATURE_PROVIDER_NOT_CONFIGURED',
    'No signature provider account is configured: an admin saves one with POST /v1/admin/openapi/config.',
  );
