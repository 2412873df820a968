import type { Knex } from 'knex';

/** Dashboard accounts. Each user works in its own workspace tenant; admins carry `admin access`. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table users (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references tenants (id),
      email text not null,
      password_hash text,
      first_name text not null default '',
      last_name text not null default '',
      phone text,
      role text not null default 'user' check (role in ('user', 'admin')),
      permissions text[] not null default '{}',
      is_active boolean not null default true,
      avatar_url text,
      last_login_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index users_email_unique on users (lower(email));
    create index users_tenant_idx on users (tenant_id);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table users');
}
