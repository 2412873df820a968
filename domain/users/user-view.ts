import type { Knex } from 'knex';
import type { User } from '../../schemas/auth.js';

interface UserViewRow {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  phone: string | null;
  role: 'user' | 'admin';
  is_active: boolean;
  avatar_url: string | null;
  email_verified_at: Date | null;
  last_login_at: Date | null;
  created_at: Date;
}

const COLUMNS = [
  'id',
  'email',
  'first_name',
  'last_name',
  'phone',
  'role',
  'is_active',
  'avatar_url',
  'email_verified_at',
  'last_login_at',
  'created_at',
];

/** A user as the API shows it (spec "Resources": User), never its password hash or Google id. */
export async function readUser(tx: Knex, tenantId: string, userId: string): Promise<User | undefined> {
  const row = await tx('users').where({ tenant_id: tenantId, id: userId }).first<UserViewRow>(COLUMNS);
  if (!row) return undefined;
  return {
    id: row.id,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    phone: row.phone,
    role: row.role,
    is_active: row.is_active,
    avatar_url: row.avatar_url,
    email_verified_at: row.email_verified_at?.toISOString() ?? null,
    last_login_at: row.last_login_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
  };
}
