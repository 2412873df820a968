import type { Knex } from 'knex';

/**
 * Idempotency-Key records (spec/DECISIONS.md): scoped to the credential's owner and environment,
 * the method and the path; kept 24 hours; the first response replayed byte for byte.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table idempotency_keys (
      id uuid primary key default gen_random_uuid(),
      scope text not null,
      tenant_id uuid references tenants (id),
      method text not null,
      path text not null,
      key text not null check (length(key) between 1 and 255),
      request_hash char(64) not null,
      status text not null check (status in ('in_progress', 'completed')),
      response_status integer,
      response_body text,
      response_content_type text,
      locked_until timestamptz,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null
    );
    create unique index idempotency_keys_unique on idempotency_keys (scope, method, path, key);
    create index idempotency_keys_expiry_idx on idempotency_keys (expires_at);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table idempotency_keys');
}
