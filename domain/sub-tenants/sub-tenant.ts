import type { SubTenant } from '../../schemas/sub-tenants.js';
import { AppError } from '../shared/app-error.js';
import type { Caller, Environment } from '../shared/caller.js';
import { isValidSiret } from '../tenants/index.js';

/** A row of `sub_tenants` (migrations/20261122000800_create_sub_tenants.ts). */
export interface SubTenantRow {
  id: string;
  tenant_id: string;
  environment: Environment;
  external_id: string | null;
  name: string;
  email: string | null;
  siret: string | null;
  vat_number: string | null;
  address: { line1?: string; city?: string; postal_code?: string };
  status: 'active' | 'suspended';
  metadata: Record<string, string | number | boolean | null>;
  onboarding_status: 'pending' | 'in_progress' | 'completed';
  created_at: Date;
  updated_at: Date;
}

/**
 * Whose sub-tenants an operation sees: the caller's tenant in the caller's environment and, for a
 * key bound to one sub-tenant, that sub-tenant only.
 */
export interface SubTenantOwner {
  tenantId: string;
  environment: Environment;
  subTenantId: string | null;
}

export function ownerOf(caller: Caller): SubTenantOwner {
  if (!caller.tenantId || !caller.environment) {
    throw new AppError('FORBIDDEN', 'Sub-tenants are reached with a tenant secret key (sk_test_ or sk_live_).');
  }
  return { tenantId: caller.tenantId, environment: caller.environment, subTenantId: caller.subTenantId ?? null };
}

/** Creating and deleting sub-tenants is the tenant's business, not one of its sub-tenants' keys. */
export function assertTenantWide(owner: SubTenantOwner, action: string): void {
  if (owner.subTenantId) {
    throw new AppError('FORBIDDEN', `A key bound to one sub-tenant cannot ${action}; use the tenant's own key.`);
  }
}

export function subTenantNotFound(id: string): AppError {
  const shown = id.length > 80 ? `${id.slice(0, 80)}…` : id;
  return new AppError('NOT_FOUND', `No sub-tenant ${shown}. GET /api/v1/tenant/sub-tenants lists yours.`);
}

export function toSubTenantView(row: SubTenantRow): SubTenant {
  return {
    id: row.id,
    tenant_id: row.tenant_id,
    external_id: row.external_id,
    name: row.name,
    email: row.email,
    siret: row.siret,
    vat_number: row.vat_number,
    address: {
      line1: row.address.line1 ?? null,
      city: row.address.city ?? null,
      postal_code: row.address.postal_code ?? null,
    },
    status: row.status,
    metadata: row.metadata,
    onboarding_status: row.onboarding_status,
    environment: row.environment,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/**
 * French VAT numbers carry a check key: FR + key + SIREN, key = (12 + 3 × (SIREN mod 97)) mod 97
 * (CGI annexe II art. 286 A). Older alphabetic keys cannot be checked this way and pass.
 */
export function isValidFrenchVat(vat: string): boolean {
  const match = /^FR([0-9A-HJ-NP-Z]{2})([0-9]{9})$/.exec(vat);
  if (!match) return false;
  const [, key, siren] = match;
  if (!/^[0-9]{2}$/.test(key)) return true;
  return Number(key) === (12 + 3 * (Number(siren) % 97)) % 97;
}

/** Checks the schema cannot express: the SIRET's Luhn key and a French VAT number's key. */
export function checkIdentifiers(input: { siret?: string | null; vat_number?: string | null }): void {
  const errors: Record<string, string[]> = {};
  if (input.siret && !isValidSiret(input.siret)) errors.siret = ['must be a valid SIRET (14 digits, Luhn check)'];
  if (input.vat_number?.startsWith('FR') && !isValidFrenchVat(input.vat_number)) {
    errors.vat_number = ['must be a valid French VAT number (FR, 2-digit key, 9-digit SIREN)'];
  }
  if (Object.keys(errors).length) throw AppError.validation(errors);
}
