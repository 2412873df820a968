export type Environment = 'sandbox' | 'production';
export type CallerKind = 'anonymous' | 'system' | 'user' | 'tenant';

/** Operations anyone may call, with or without credentials (health, pricing, the API description). */
export const ANY_CALLER: readonly CallerKind[] = ['anonymous', 'user', 'tenant', 'system'];

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
