/** The configurable rate limits and their defaults (the specification's "Limits" table), read by the RATE_LIMITS setting. */

export interface RateWindows {
  per_minute?: number;
  per_hour?: number;
}

/** Limit names as configured in RATE_LIMITS: the class, with the environment where it matters. */
export type RateLimitName =
  | 'api_production'
  | 'api_sandbox'
  | 'tenant_production'
  | 'tenant_sandbox'
  | 'onboarding'
  | 'exchange'
  | 'mcp'
  | 'anonymous'
  | 'credentials'
  /** Tenant self-registration, per partner publishable key (counted by the operation, not a route). */
  | 'tenant_registration';

export const DEFAULT_RATE_LIMITS: Readonly<Record<RateLimitName, RateWindows>> = {
  api_production: { per_minute: 60 },
  api_sandbox: { per_minute: 1000 },
  tenant_production: { per_minute: 100, per_hour: 5000 },
  tenant_sandbox: { per_minute: 30, per_hour: 500 },
  onboarding: { per_minute: 30 },
  exchange: { per_minute: 5 },
  mcp: { per_minute: 60 },
  anonymous: { per_minute: 120 },
  credentials: { per_minute: 10, per_hour: 100 },
  tenant_registration: { per_minute: 10, per_hour: 100 },
};
