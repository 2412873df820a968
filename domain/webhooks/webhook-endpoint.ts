import type { Environment } from '../shared/caller.js';

/** A row of `webhook_endpoints` (the sealed columns stay sealed until a delivery needs them). */
export interface WebhookEndpointRow {
  id: string;
  tenant_id: string;
  kind: 'endpoint' | 'tenant_profile';
  url: string;
  description: string | null;
  events: string[];
  /** Every endpoint serves one environment, the tenant's own webhook_url included. */
  environment: Environment;
  secret_encrypted: string;
  secret_last4: string;
  headers_encrypted: string | null;
  header_names: string[];
  timeout_seconds: number;
  retry_count: number | null;
  is_active: boolean;
  disabled_at: Date | null;
  disabled_reason: string | null;
  failure_count: number;
  failing_since: Date | null;
  last_triggered_at: Date | null;
  last_success_at: Date | null;
  last_failure_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface WebhookEndpointView {
  id: string;
  url: string;
  description: string | null;
  events: string[];
  is_active: boolean;
  environment: Environment;
  secret_last4: string;
  headers: string[];
  timeout_seconds: number;
  retry_count: number | null;
  failure_count: number;
  disabled_at: string | null;
  disabled_reason: string | null;
  last_triggered_at: string | null;
  last_success_at: string | null;
  last_failure_at: string | null;
  created_at: string;
  updated_at: string;
}

const iso = (value: Date | null): string | null => (value ? value.toISOString() : null);

/** The specification's Webhook endpoint, with the secret's last 4 characters instead of the secret. */
export const toEndpointView = (row: WebhookEndpointRow): WebhookEndpointView => ({
  id: row.id,
  url: row.url,
  description: row.description,
  events: row.events,
  is_active: row.is_active,
  environment: row.environment,
  secret_last4: row.secret_last4,
  headers: row.header_names,
  timeout_seconds: row.timeout_seconds,
  retry_count: row.retry_count,
  failure_count: row.failure_count,
  disabled_at: iso(row.disabled_at),
  disabled_reason: row.disabled_reason,
  last_triggered_at: iso(row.last_triggered_at),
  last_success_at: iso(row.last_success_at),
  last_failure_at: iso(row.last_failure_at),
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

/** Headers the service sets itself, or that would change how the request is framed or routed. */
const RESERVED =
  /^(content-type|content-length|content-encoding|host|connection|keep-alive|transfer-encoding|te|trailer|upgrade|expect|user-agent|proxy-.*|x-service-.*)$/i;

/** Validation errors of custom headers (the schema already checked names, sizes and line breaks). */
export function headerProblems(headers: Record<string, string>): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const seen = new Set<string>();
  for (const name of Object.keys(headers)) {
    if (RESERVED.test(name)) errors[`headers.${name}`] = ['is set by the service and cannot be overridden'];
    else if (seen.has(name.toLowerCase())) errors[`headers.${name}`] = ['is given twice (names are case-insensitive)'];
    seen.add(name.toLowerCase());
  }
  return errors;
}
