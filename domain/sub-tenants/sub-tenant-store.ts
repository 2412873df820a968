import type { Knex } from 'knex';
import type { ListSubTenantsInput } from '../../schemas/sub-tenants.js';
import { AppError } from '../shared/app-error.js';
import { isUniqueViolation } from '../shared/pg-errors.js';
import { type SubTenantOwner, type SubTenantRow, subTenantNotFound } from './sub-tenant.js';

const EXTERNAL_ID_UNIQUE = 'sub_tenants_external_id_unique';

/** Writable columns, as stored. */
export interface SubTenantFields {
  external_id?: string;
  name?: string;
  email?: string | null;
  siret?: string | null;
  vat_number?: string | null;
  address?: Record<string, string>;
  metadata?: Record<string, unknown>;
}

/** The owner's sub-tenants: tenant and environment always, one sub-tenant for a key bound to it. */
export function ownedSubTenants(tx: Knex, owner: SubTenantOwner): Knex.QueryBuilder {
  const query = tx('sub_tenants').where({
    'sub_tenants.tenant_id': owner.tenantId,
    'sub_tenants.environment': owner.environment,
  });
  if (owner.subTenantId) query.andWhere('sub_tenants.id', owner.subTenantId);
  return query;
}

/** The owner's sub-tenant, or NOT_FOUND for an unknown or foreign id (a malformed one never gets here). */
export async function requireSubTenant(
  tx: Knex,
  owner: SubTenantOwner,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<SubTenantRow> {
  const query = ownedSubTenants(tx, owner).andWhere('sub_tenants.id', id).first<SubTenantRow>();
  if (options.forUpdate) query.forUpdate();
  const row = await query;
  if (!row) throw subTenantNotFound(id);
  return row;
}

export async function findByExternalId(
  tx: Knex,
  owner: SubTenantOwner,
  externalId: string,
): Promise<SubTenantRow | undefined> {
  return ownedSubTenants(tx, owner).andWhere('sub_tenants.external_id', externalId).first<SubTenantRow>();
}

export function listQuery(tx: Knex, owner: SubTenantOwner, filters: ListSubTenantsInput): Knex.QueryBuilder {
  const query = ownedSubTenants(tx, owner).select('sub_tenants.*');
  if (filters.status) query.andWhere('sub_tenants.status', filters.status);
  if (filters.onboarding_status) query.andWhere('sub_tenants.onboarding_status', filters.onboarding_status);
  if (filters.q) {
    const pattern = `%${filters.q.replace(/[\\%_]/g, '\\$&')}%`;
    query.andWhere((w) =>
      w
        .whereILike('sub_tenants.name', pattern)
        .orWhereILike('sub_tenants.email', pattern)
        .orWhereILike('sub_tenants.external_id', pattern),
    );
  }
  return query.orderBy([
    { column: 'sub_tenants.created_at', order: 'desc' },
    { column: 'sub_tenants.id', order: 'desc' },
  ]);
}

/** 409 DUPLICATE_EXTERNAL_ID naming the sub-tenant that already carries the identifier. */
export function duplicateExternalId(externalId: string, existingId: string): AppError {
  return new AppError(
    'DUPLICATE_EXTERNAL_ID',
    `A sub-tenant with external_id ${externalId} already exists in this environment (${existingId}).`,
    { body: { existing_id: existingId } },
  );
}

/** Refuses an external_id another sub-tenant of the owner (other than `selfId`) already carries. */
export async function assertExternalIdFree(
  tx: Knex,
  owner: SubTenantOwner,
  externalId: string,
  selfId?: string,
): Promise<void> {
  const existing = await findByExternalId(tx, { ...owner, subTenantId: null }, externalId);
  if (existing && existing.id !== selfId) throw duplicateExternalId(externalId, existing.id);
}

/**
 * Runs a write in a savepoint so that a concurrent request which took the same external_id between
 * our check and our write (the unique index catches it) still answers 409 with the existing id.
 */
export async function guardExternalId<T>(
  tx: Knex,
  owner: SubTenantOwner,
  externalId: string | undefined,
  write: (sp: Knex) => Promise<T>,
): Promise<T> {
  try {
    return await tx.transaction((sp) => write(sp));
  } catch (err) {
    if (externalId === undefined || !isUniqueViolation(err, EXTERNAL_ID_UNIQUE)) throw err;
    const existing = await findByExternalId(tx, { ...owner, subTenantId: null }, externalId);
    if (!existing) throw err;
    throw duplicateExternalId(externalId, existing.id);
  }
}

export async function insertSubTenant(
  tx: Knex,
  owner: SubTenantOwner,
  fields: SubTenantFields,
  now: Date,
): Promise<SubTenantRow> {
  const [row] = await tx('sub_tenants')
    .insert({
      ...fields,
      tenant_id: owner.tenantId,
      environment: owner.environment,
      created_at: now,
      updated_at: now,
    })
    .returning<SubTenantRow[]>('*');
  return row;
}

export async function updateSubTenant(
  tx: Knex,
  owner: SubTenantOwner,
  id: string,
  fields: SubTenantFields,
  now: Date,
): Promise<SubTenantRow> {
  const [row] = await ownedSubTenants(tx, owner)
    .andWhere('sub_tenants.id', id)
    .update({ ...fields, updated_at: now })
    .returning<SubTenantRow[]>('*');
  return row;
}
