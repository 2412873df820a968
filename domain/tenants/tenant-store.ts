import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { randomAlphanumeric } from '../shared/random.js';
import { enterTenant } from '../shared/tenant-context.js';

export interface NewTenant {
  /** Set by `insertTenantAndEnter`, which must know the id before the row exists. */
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

/**
 * A public sign-up (user or tenant registration, first Google sign-in): row-level security admits
 * only the transaction's own tenant, so the transaction enters the new tenant first, then inserts it.
 */
export async function insertTenantAndEnter(tx: Knex, input: Omit<NewTenant, 'id'>): Promise<TenantRow> {
  const id = randomUUID();
  await enterTenant(tx, id);
  return insertTenant(tx, { ...input, id });
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
