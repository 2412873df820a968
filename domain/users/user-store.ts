import type { Knex } from 'knex';

export interface UserRow {
  id: string;
  tenant_id: string;
  email: string;
  role: 'user' | 'admin';
  permissions: string[];
  is_active: boolean;
}

export interface NewUser {
  tenantId: string;
  email: string;
  passwordHash: string | null;
  firstName: string;
  lastName: string;
  role: 'user' | 'admin';
  permissions: string[];
  /** E.164, already normalised. */
  phone?: string | null;
  googleId?: string | null;
  avatarUrl?: string | null;
  /** When the e-mail was proven (Google sign-in, an operator); null until the user follows the mailed link. */
  emailVerifiedAt?: Date | null;
  now: Date;
}

export async function insertUser(tx: Knex, input: NewUser): Promise<UserRow> {
  const [user] = await tx('users')
    .insert({
      tenant_id: input.tenantId,
      email: input.email,
      password_hash: input.passwordHash,
      first_name: input.firstName,
      last_name: input.lastName,
      role: input.role,
      permissions: input.permissions,
      phone: input.phone ?? null,
      google_id: input.googleId ?? null,
      avatar_url: input.avatarUrl ?? null,
      email_verified_at: input.emailVerifiedAt ?? null,
      created_at: input.now,
      updated_at: input.now,
    })
    .returning<UserRow[]>(['id', 'tenant_id', 'email', 'role', 'permissions', 'is_active']);
  return user;
}

export async function findUser(tx: Knex, userId: string): Promise<UserRow | undefined> {
  return tx('users')
    .where({ id: userId })
    .first<UserRow>(['id', 'tenant_id', 'email', 'role', 'permissions', 'is_active']);
}
