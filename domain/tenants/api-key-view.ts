import type { ApiKey } from '../../schemas/api-keys.js';
import type { TenantKey } from '../../schemas/tenant-auth.js';
import type { Environment } from '../shared/caller.js';
import type { KeyKind } from './api-key.js';

/** An `api_keys` row as stored (the hash is never selected). */
export interface ApiKeyRow {
  id: string;
  tenant_id: string;
  user_id: string | null;
  company_id: string | null;
  sub_tenant_id: string | null;
  name: string;
  kind: KeyKind;
  environment: Environment;
  key_prefix: string;
  last_four: string;
  scopes: string[];
  status: 'active' | 'revoked';
  expires_at: Date | null;
  last_used_at: Date | null;
  last_used_ip: string | null;
  revoked_at: Date | null;
  revoked_reason: string | null;
  created_at: Date;
}

/** Every column but `key_hash`: no query of this module ever reads the hash back. */
export const API_KEY_COLUMNS = [
  'id',
  'tenant_id',
  'user_id',
  'company_id',
  'sub_tenant_id',
  'name',
  'kind',
  'environment',
  'key_prefix',
  'last_four',
  'scopes',
  'status',
  'expires_at',
  'last_used_at',
  'last_used_ip',
  'revoked_at',
  'revoked_reason',
  'created_at',
] as const;

export type KeyStatus = 'active' | 'revoked' | 'expired';

/**
 * `expired` is derived, never stored: an unrevoked key whose `expires_at` has passed. The stored
 * status stays `active`, and authentication refuses it like a revoked key (API_KEY_REVOKED).
 */
export function keyStatus(row: Pick<ApiKeyRow, 'status' | 'expires_at'>, now: Date): KeyStatus {
  if (row.status === 'revoked') return 'revoked';
  if (row.expires_at && row.expires_at.getTime() <= now.getTime()) return 'expired';
  return 'active';
}

const iso = (value: Date | null): string | null => (value ? value.toISOString() : null);

/** The specification's API key resource, plus `last_four` and `created_at` (schema `ApiKey`). */
export type ApiKeyView = ApiKey;

export function toApiKeyView(row: ApiKeyRow, now: Date): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    company_id: row.company_id,
    environment: row.environment,
    scopes: row.scopes as ApiKeyView['scopes'],
    expires_at: iso(row.expires_at),
    status: keyStatus(row, now),
    key_prefix: row.key_prefix,
    last_four: row.last_four,
    last_used_at: iso(row.last_used_at),
    last_used_ip: row.last_used_ip,
    revoked_at: iso(row.revoked_at),
    revoked_reason: row.revoked_reason,
    created_at: row.created_at.toISOString(),
  };
}

/** A tenant's key as GET /v1/tenant/auth/keys lists it (schema `TenantKey`). */
export type TenantKeyView = TenantKey;

export function toTenantKeyView(row: ApiKeyRow, now: Date): TenantKeyView {
  return {
    id: row.id,
    type: row.kind,
    prefix: row.key_prefix,
    last_four: row.last_four,
    environment: row.environment,
    scopes: row.scopes as TenantKeyView['scopes'],
    sub_tenant_id: row.sub_tenant_id,
    status: keyStatus(row, now),
    created_at: row.created_at.toISOString(),
    last_used_at: iso(row.last_used_at),
  };
}
