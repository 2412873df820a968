export type Environment = 'sandbox' | 'production';
/**
 * `user`: a dashboard account (token, cookie session or one of its API keys); `tenant`: a platform
 * (secret key or login token); `publishable`: a tenant's browser-safe key, good for onboarding
 * widgets only; `system`: the operator's command line and the workers.
 */
export type CallerKind = 'anonymous' | 'system' | 'user' | 'tenant' | 'publishable';

/** Operations anyone may call, with or without credentials (health, pricing, the API description). */
export const ANY_CALLER: readonly CallerKind[] = ['anonymous', 'user', 'tenant', 'publishable', 'system'];

/** How the caller proved who it is. */
export type CredentialType = 'secret_key' | 'publishable_key' | 'access_token' | 'session' | 'tenant_token';

export interface Credential {
  type: CredentialType;
  /** Row id of the key or token (never the secret itself). */
  id: string;
}

/** Who is calling an operation, as the HTTP, MCP, CLI or worker surface established it. */
export interface Caller {
  kind: CallerKind;
  /** The isolation key: every tenant-owned row carries it and row-level security filters on it. */
  tenantId: string | null;
  userId?: string | null;
  subTenantId?: string | null;
  environment: Environment | null;
  /** Granted scopes (`invoices`, `signatures`, `fiscal:read`, ...); `*` grants all (system only). */
  scopes: readonly string[];
  ip?: string | null;
  requestId?: string | null;
  credential?: Credential | null;
  /** User permissions (`admin access`). */
  permissions?: readonly string[];
  /** Partner tenants may onboard other tenants. */
  isPartner?: boolean;
  /** The company a user's API key is restricted to. */
  companyId?: string | null;
  /**
   * Set on anonymous callers of the dashboard's browser flow (CSRF cookie and header matched):
   * login then opens a cookie session instead of handing out a bearer token.
   */
  browserSession?: boolean;
  /** Set on anonymous callers: their User-Agent (the signing page records it in the proof file). */
  userAgent?: string | null;
  /** Set on anonymous callers: the Google sign-in nonce this browser holds in its HttpOnly cookie. */
  oauthNonce?: string | null;
}

export const anonymousCaller = (ip?: string | null, requestId?: string | null): Caller => ({
  kind: 'anonymous',
  tenantId: null,
  environment: null,
  scopes: [],
  ip: ip ?? null,
  requestId: requestId ?? null,
});

/** The operator's command-line tool and the workers act as the system, optionally for one tenant. */
export const systemCaller = (tenantId: string | null = null, environment: Environment | null = null): Caller => ({
  kind: 'system',
  tenantId,
  environment,
  scopes: ['*'],
});
