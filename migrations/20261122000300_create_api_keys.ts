import type { Knex } from 'knex';

/**
 * Secret (`sk_`) and publishable (`pk_`) keys of tenants and users. Only the SHA-256 of a key is
 * kept; it is looked up by its prefix and hash, never by the raw key (spec "Secret-key validation").
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table api_keys (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references tenants (id),
      user_id uuid references users (id),
      company_id uuid,
      sub_tenant_id uuid,
      name text not null,
      kind text not null check (kind in ('secret', 'publishable')),
      environment text not null check (environment in ('sandbox', 'production')),
      key_prefix text not null,
      key_hash char(64) not null unique,
      last_four char(4) not null,
      scopes text[] not null default '{}',
      status text not null default 'active' check (status in ('active', 'revoked')),
      expires_at timestamptz,
      last_used_at timestamptz,
      last_used_ip text,
      revoked_at timestamptz,
      revoked_reason text,
      created_at timestamptz not null default now()
    );
    create index api_keys_tenant_idx on api_keys (tenant_id, created_at desc);
    create index api_keys_prefix_idx on api_keys (key_prefix);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table api_keys');
}
