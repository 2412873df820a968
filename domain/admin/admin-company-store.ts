import type { Knex } from 'knex';
import type { AdminCompany, AdminCompanyListInput } from '../../schemas/admin.js';
import { AppError } from '../shared/app-error.js';
import { likePattern } from './admin-user-store.js';

interface AdminCompanyRow {
  id: string;
  tenant_id: string;
  sub_tenant_id: string | null;
  name: string;
  siret: string;
  vat_number: string | null;
  email: string | null;
  city: string;
  country: string;
  status: 'active' | 'inactive';
  kyc_status: AdminCompany['kyc_status'];
  owner_email: string | null;
  invoices_count: string | number;
  api_keys_count: string | number;
  created_at: Date;
}

/** Live companies with their owner (the workspace's user, else the tenant's e-mail) and their figures. */
function companiesQuery(tx: Knex): Knex.QueryBuilder {
  return tx('companies as c')
    .leftJoin('tenants as t', 't.id', 'c.tenant_id')
    .whereNull('c.deleted_at')
    .select(
      'c.id',
      'c.tenant_id',
      'c.sub_tenant_id',
      'c.name',
      'c.siret',
      'c.vat_number',
      'c.email',
      'c.city',
      'c.country',
      'c.status',
      'c.kyc_status',
      'c.created_at',
      tx.raw(
        'coalesce((select u.email from users u where u.tenant_id = c.tenant_id order by u.created_at limit 1), t.email) as owner_email',
      ),
      tx.raw(
        "(select count(*) from invoices i where i.company_id = c.id and i.status <> 'deleted')::int as invoices_count",
      ),
      tx.raw(
        "(select count(*) from api_keys k where k.company_id = c.id and k.status = 'active')::int as api_keys_count",
      ),
    );
}

export function toAdminCompany(row: AdminCompanyRow): AdminCompany {
  return {
    id: row.id,
    tenant_id: row.tenant_id,
    sub_tenant_id: row.sub_tenant_id,
    name: row.name,
    siret: row.siret,
    vat_number: row.vat_number,
    email: row.email,
    city: row.city,
    country: row.country,
    status: row.status,
    kyc_status: row.kyc_status,
    owner_email: row.owner_email,
    invoices_count: Number(row.invoices_count),
    api_keys_count: Number(row.api_keys_count),
    created_at: row.created_at.toISOString(),
  };
}

/** Every live company matching the filters, newest first (the transaction acts across tenants). */
export function adminCompaniesQuery(tx: Knex, filters: AdminCompanyListInput): Knex.QueryBuilder {
  const query = companiesQuery(tx).orderBy([
    { column: 'c.created_at', order: 'desc' },
    { column: 'c.id', order: 'desc' },
  ]);
  if (filters.search) {
    const pattern = likePattern(filters.search);
    query.where((q) =>
      q.whereILike('c.name', pattern).orWhereILike('c.siret', pattern).orWhereILike('c.email', pattern),
    );
  }
  if (filters.status) query.where('c.status', filters.status);
  if (filters.kyc_status) query.where('c.kyc_status', filters.kyc_status);
  if (filters.tenant_id) query.where('c.tenant_id', filters.tenant_id);
  return query;
}

export async function requireAdminCompany(tx: Knex, id: string): Promise<AdminCompany> {
  const row = await companiesQuery(tx).where('c.id', id).first<AdminCompanyRow | undefined>();
  if (!row) throw new AppError('NOT_FOUND', `No company ${id}. GET /api/v1/admin/companies lists them.`);
  return toAdminCompany(row);
}

/** The company's status, its row locked: two toggles at once take turns. */
export async function lockCompanyStatus(
  tx: Knex,
  id: string,
): Promise<{ tenant_id: string; status: 'active' | 'inactive' }> {
  const row = await tx('companies')
    .where({ id })
    .whereNull('deleted_at')
    .forUpdate()
    .first<{ tenant_id: string; status: 'active' | 'inactive' } | undefined>('tenant_id', 'status');
  if (!row) throw new AppError('NOT_FOUND', `No company ${id}. GET /api/v1/admin/companies lists them.`);
  return row;
}

export async function setCompanyStatus(tx: Knex, id: string, status: 'active' | 'inactive', now: Date): Promise<void> {
  await tx('companies').where({ id }).update({ status, updated_at: now });
}
