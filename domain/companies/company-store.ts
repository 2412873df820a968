import type { Knex } from 'knex';
import { AppError } from '../shared/app-error.js';
import { isUniqueViolation } from '../shared/pg-errors.js';
import { type CompanyFields, type CompanyRow, SIRET_TAKEN } from './company.js';

const COLUMNS = [
  'id',
  'tenant_id',
  'name',
  'siret',
  'vat_number',
  'legal_form',
  'address_line1',
  'address_line2',
  'postal_code',
  'city',
  'country',
  'phone',
  'email',
  'website',
  'status',
  'kyc_status',
  'kyc_reference',
  'kyc_started_at',
  'kyc_completed_at',
  'kyc_failure_reason',
  'kyc_verification_url',
  'created_at',
];

/** The SIRET is unique among one owner's live companies (partial unique index). */
const SIRET_UNIQUE = 'companies_siret_unique';

/** Live (not deleted) companies of one tenant. */
const live = (tx: Knex, tenantId: string) => tx('companies').where({ tenant_id: tenantId }).whereNull('deleted_at');

export const notFound = (id: string): AppError =>
  new AppError('NOT_FOUND', `No company ${id}. List yours with GET /api/v1/companies.`, { retryable: false });

/**
 * A live company of the tenant, or 404: another owner's company and a deleted one look the same
 * from outside (a malformed id is refused before, by its schema). `forUpdate` locks the row for the rest of the transaction.
 */
export async function getCompany(
  tx: Knex,
  tenantId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<CompanyRow> {
  const query = live(tx, tenantId).where({ id }).first<CompanyRow | undefined>(COLUMNS);
  const row = await (options.forUpdate ? query.forUpdate() : query);
  if (!row) throw notFound(id);
  return row;
}

/** Newest first, with the id as tie-breaker so pages never overlap. */
export const listQuery = (tx: Knex, tenantId: string): Knex.QueryBuilder =>
  live(tx, tenantId)
    .select(COLUMNS)
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ]);

export async function insertCompany(tx: Knex, tenantId: string, fields: CompanyFields, now: Date): Promise<CompanyRow> {
  try {
    const [row] = await tx('companies')
      .insert({ ...fields, tenant_id: tenantId, created_at: now, updated_at: now })
      .returning<CompanyRow[]>(COLUMNS);
    return row;
  } catch (err) {
    if (isUniqueViolation(err, SIRET_UNIQUE)) throw SIRET_TAKEN();
    throw err;
  }
}

export async function updateCompany(
  tx: Knex,
  tenantId: string,
  id: string,
  changes: Partial<CompanyRow>,
  now: Date,
): Promise<CompanyRow> {
  try {
    const [row] = await live(tx, tenantId)
      .where({ id })
      .update({ ...changes, updated_at: now })
      .returning<CompanyRow[]>(COLUMNS);
    if (!row) throw notFound(id);
    return row;
  } catch (err) {
    if (isUniqueViolation(err, SIRET_UNIQUE)) throw SIRET_TAKEN();
    throw err;
  }
}

/** Soft delete: the row stays (invoices will reference it) and leaves the SIRET's unique index. */
export async function softDeleteCompany(tx: Knex, tenantId: string, id: string, now: Date): Promise<void> {
  await live(tx, tenantId).where({ id }).update({ deleted_at: now, updated_at: now });
}

/**
 * Revokes the active API keys restricted to a company (`api_keys.company_id`), as the revoke
 * operation does: immediate and irreversible. Returns how many were revoked.
 */
export async function revokeCompanyKeys(tx: Knex, tenantId: string, companyId: string, now: Date): Promise<number> {
  return tx('api_keys')
    .where({ tenant_id: tenantId, company_id: companyId, status: 'active' })
    .update({ status: 'revoked', revoked_at: now, revoked_reason: 'company deleted' });
}
