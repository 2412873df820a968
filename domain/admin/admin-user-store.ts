import type { Knex } from 'knex';
import type { AdminUser, AdminUserListInput } from '../../schemas/admin.js';
import { AppError } from '../shared/app-error.js';

/** The permission that makes a user an admin (domain/shared/operation.ts `Permission`). */
const ADMIN_ACCESS = 'admin access';

export interface AdminUserRow {
  id: string;
  tenant_id: string;
  email: string;
  first_name: string;
  last_name: string;
  role: 'user' | 'admin';
  permissions: string[];
  is_active: boolean;
  disabled_at: Date | null;
  email_verified_at: Date | null;
  last_login_at: Date | null;
  created_at: Date;
}

const COLUMNS = [
  'id',
  'tenant_id',
  'email',
  'first_name',
  'last_name',
  'role',
  'permissions',
  'is_active',
  'disabled_at',
  'email_verified_at',
  'last_login_at',
  'created_at',
];

/** `%` and `_` of a search typed by the admin are matched as themselves. */
export const likePattern = (search: string): string => `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function toAdminUser(row: AdminUserRow): AdminUser {
  return {
    id: row.id,
    tenant_id: row.tenant_id,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    role: row.role,
    is_admin: row.permissions.includes(ADMIN_ACCESS),
    is_active: row.is_active,
    disabled_at: row.disabled_at?.toISOString() ?? null,
    email_verified_at: row.email_verified_at?.toISOString() ?? null,
    last_login_at: row.last_login_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
  };
}

/** Every user matching the filters, newest first (the transaction acts across tenants). */
export function adminUsersQuery(tx: Knex, filters: AdminUserListInput): Knex.QueryBuilder {
  const query = tx('users')
    .select(COLUMNS)
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ]);
  if (filters.search) {
    const pattern = likePattern(filters.search);
    query.where((q) =>
      q
        .whereILike('email', pattern)
        .orWhereILike('first_name', pattern)
        .orWhereILike('last_name', pattern)
        .orWhereRaw("(first_name || ' ' || last_name) ilike ?", [pattern]),
    );
  }
  if (filters.status) query.where('is_active', filters.status === 'active');
  if (filters.role) query.where('role', filters.role);
  return query;
}

export async function requireAdminUser(tx: Knex, id: string, options: { forUpdate?: boolean } = {}) {
  const query = tx('users').where({ id }).first<AdminUserRow | undefined>(COLUMNS);
  if (options.forUpdate) query.forUpdate();
  const row = await query;
  if (!row) throw new AppError('NOT_FOUND', `No user ${id}. GET /api/v1/admin/users lists them.`);
  return row;
}

/** Enables or disables the user: its tokens, sessions and keys are read with `is_active` on every request. */
export async function setUserActive(tx: Knex, id: string, active: boolean, now: Date): Promise<AdminUserRow> {
  const [row] = await tx('users')
    .where({ id })
    .update({
      is_active: active,
      disabled_at: active ? null : now,
      updated_at: now,
    })
    .returning<AdminUserRow[]>(COLUMNS);
  return row;
}
