import type { Knex } from 'knex';
import type { AdminSubTenantListInput, AdminSubTenantTenant } from '../../schemas/admin.js';
import { AppError } from '../shared/app-error.js';
import type { Page } from '../shared/pagination.js';
import { type SubTenantRow, toSubTenantView } from '../sub-tenants/index.js';
import { likePattern } from './admin-user-store.js';

export interface AdminTenantRow {
  id: string;
  name: string;
  legal_name: string | null;
  siret: string | null;
  billing_email: string | null;
  kyb_status: AdminSubTenantTenant['kyb_status'];
}

const TENANT_COLUMNS = ['id', 'name', 'legal_name', 'siret', 'billing_email', 'kyb_status'] as const;

export const toAdminTenant = (row: AdminTenantRow) => ({
  id: row.id,
  name: row.name,
  legal_name: row.legal_name,
  siret: row.siret,
  billing_email: row.billing_email,
  kyb_status: row.kyb_status,
});

export async function findAdminTenant(tx: Knex, id: string): Promise<AdminTenantRow> {
  return tx('tenants').where({ id }).first<AdminTenantRow>(TENANT_COLUMNS);
}

/**
 * Platform tenants, each with its sub-tenants (both environments), a page of tenants at a time.
 * `onboarding_status` keeps the sub-tenants at that stage and the tenants that have one; `search`
 * keeps the tenants it matches (with all their sub-tenants) and, in other tenants, the sub-tenants
 * it matches.
 */
export async function listTenantsWithSubTenants(
  tx: Knex,
  input: AdminSubTenantListInput,
): Promise<Page<AdminSubTenantTenant>> {
  const pattern = input.search ? likePattern(input.search) : null;
  const tenantMatches = (q: Knex.QueryBuilder, alias: string) =>
    q
      .whereILike(`${alias}.name`, pattern!)
      .orWhereILike(`${alias}.legal_name`, pattern!)
      .orWhereILike(`${alias}.siret`, pattern!)
      .orWhereILike(`${alias}.billing_email`, pattern!);
  /** The sub-tenants listed under tenant `t`. */
  const listedSubTenants = (q: Knex.QueryBuilder) => {
    q.whereRaw('s.tenant_id = t.id');
    if (input.onboarding_status) q.where('s.onboarding_status', input.onboarding_status);
    if (pattern) {
      q.where((w) =>
        tenantMatches(w, 't')
          .orWhereILike('s.name', pattern)
          .orWhereILike('s.external_id', pattern)
          .orWhereILike('s.siret', pattern)
          .orWhereILike('s.email', pattern),
      );
    }
    return q;
  };

  const tenants = tx('tenants as t').where('t.kind', 'platform');
  if (input.onboarding_status) {
    tenants.whereExists((q) => listedSubTenants(q.select(tx.raw('1')).from('sub_tenants as s')));
  } else if (pattern) {
    tenants.where((w) =>
      tenantMatches(w, 't').orWhereExists((q) => listedSubTenants(q.select(tx.raw('1')).from('sub_tenants as s'))),
    );
  }
  const [{ n }] = await tenants.clone().count<{ n: string }[]>({ n: '*' });
  const total = Number(n);
  const rows = await tenants
    .select(TENANT_COLUMNS.map((column) => `t.${column}`))
    .orderBy([
      { column: 't.created_at', order: 'desc' },
      { column: 't.id', order: 'desc' },
    ])
    .limit(input.per_page)
    .offset((input.page - 1) * input.per_page);

  const subTenants: (SubTenantRow & { tenant_id: string })[] = rows.length
    ? await listedSubTenants(tx('sub_tenants as s').join('tenants as t', 't.id', 's.tenant_id'))
        .whereIn(
          's.tenant_id',
          rows.map((row: AdminTenantRow) => row.id),
        )
        .select('s.*')
        .orderBy([
          { column: 's.created_at', order: 'desc' },
          { column: 's.id', order: 'desc' },
        ])
    : [];
  return {
    data: rows.map((row: AdminTenantRow) => {
      const own = subTenants.filter((s) => s.tenant_id === row.id).map(toSubTenantView);
      return { ...toAdminTenant(row), sub_tenants_count: own.length, sub_tenants: own };
    }),
    meta: {
      current_page: input.page,
      last_page: Math.max(1, Math.ceil(total / input.per_page)),
      per_page: input.per_page,
      total,
    },
  };
}

/** Any tenant's sub-tenant (the transaction acts across tenants), or 404. */
export async function requireAdminSubTenant(
  tx: Knex,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<SubTenantRow> {
  const query = tx('sub_tenants').where({ id }).first<SubTenantRow | undefined>();
  if (options.forUpdate) query.forUpdate();
  const row = await query;
  if (!row) throw new AppError('NOT_FOUND', `No sub-tenant ${id}. GET /api/admin/sub-tenants lists them.`);
  return row;
}
