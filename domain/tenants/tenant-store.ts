import type { Knex } from 'knex';
import { randomAlphanumeric } from '../shared/random.js';

export interface NewTenant {
  /** A chosen id: public sign-ups enter the new tenant's row-level context before inserting it. */
  id?: string;
  kind: 'platform' | 'workspace';
  name: string;
  legalName?: string | null;
  email?: string | null;
  siret?: string | null;
  isPartner?: boolean;
  kybStatus?: 'pending' | 'verified';
  /** The partner that registered the tenant. */
  parentTenantId?: string | null;
  passwordHash?: string | null;
  now: Date;
}

export interface TenantRow {
  id: string;
  kind: 'platform' | 'workspace';
  name: string;
  slug: string;
  email: string | null;
  siret: string | null;
  kyb_status: string;
  is_partner: boolean;
  is_active: boolean;
}

/** Inserts a tenant with an empty production balance. */
export async function insertTenant(tx: Knex, input: NewTenant): Promise<TenantRow> {
  const [tenant] = await tx('tenants')
    .insert({
      ...(input.id ? { id: input.id } : {}),
      parent_tenant_id: input.parentTenantId ?? null,
      password_hash: input.passwordHash ?? null,
      kind: input.kind,
      name: input.name,
      slug: slugFor(input.name),
      legal_name: input.legalName ?? (input.kind === 'platform' ? input.name : null),
      email: input.email ?? null,
      billing_email: input.email ?? null,
      technical_email: input.email ?? null,
      siret: input.siret ?? null,
      is_partner: input.isPartner ?? false,
      kyb_status: input.kybStatus ?? 'pending',
      kyb_verified_at: input.kybStatus === 'verified' ? input.now : null,
      created_at: input.now,
      updated_at: input.now,
    })
    .returning<TenantRow[]>(['id', 'kind', 'name', 'slug', 'email', 'siret', 'kyb_status', 'is_partner', 'is_active']);
  await tx('balances').insert({ tenant_id: tenant.id, updated_at: input.now });
  return tenant;
}

export async function findTenant(tx: Knex, tenantId: string): Promise<TenantRow | undefined> {
  return tx('tenants')
    .where({ id: tenantId })
    .first<TenantRow>(['id', 'kind', 'name', 'slug', 'email', 'siret', 'kyb_status', 'is_partner', 'is_active']);
}

/** A readable, unique slug: the name's ASCII form plus a random suffix. */
function slugFor(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return `${base || 'tenant'}-${randomAlphanumeric(6, 'abcdefghijklmnopqrstuvwxyz0123456789')}`;
}
