import type { Knex } from 'knex';

/**
 * Bearer tokens and dashboard cookie sessions of users, and login tokens of tenants. Only the
 * SHA-256 of a token is kept; logout sets `revoked_at` and the token stops working at once.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table users add column google_id text;
    create unique index users_google_id_unique on users (google_id) where google_id is not null;

    create table access_tokens (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references tenants (id),
      user_id uuid references users (id),
      kind text not null check (kind in ('bearer', 'session', 'tenant')),
      environment text check (environment in ('sandbox', 'production')),
      token_hash char(64) not null unique,
      expires_at timestamptz not null,
      last_used_at timestamptz,
      last_used_ip text,
      revoked_at timestamptz,
      created_ip text,
      user_agent text,
      created_at timestamptz not null default now(),
      check ((kind = 'tenant') = (user_id is null)),
      check ((kind = 'tenant') = (environment is not null))
    );
    create index access_tokens_user_idx on access_tokens (user_id) where user_id is not null;
    create index access_tokens_expiry_idx on access_tokens (expires_at);

    create table password_resets (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references tenants (id),
      user_id uuid not null references users (id),
      token_hash char(64) not null unique,
      expires_at timestamptz not null,
      used_at timestamptz,
      created_at timestamptz not null default now()
    );
    create index password_resets_user_idx on password_resets (user_id);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop table password_resets;
    drop table access_tokens;
    alter table users drop column google_id;
  `);
}
