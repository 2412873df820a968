import type { Knex } from 'knex';
import { APP_ROLE } from '../domain/shared/database.js';
import { refuseChanges } from './support/append-only.js';

/**
 * The administration's own log: one row per admin action (a user or company disabled or enabled,
 * a balance credited or debited, a sub-tenant deleted), with the admin, the action, its target, the
 * details and the IP. Append-only for every role; visible to the system only, which the admin
 * operations act as once `execute` has checked the `admin access` permission.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table admin_audit_log (
      id uuid primary key default gen_random_uuid(),
      admin_user_id uuid not null references users (id),
      action text not null check (action ~ '^[a-z][a-z_.]{0,63}$'),
      target_type text not null check (target_type in ('user', 'company', 'sub_tenant', 'tenant')),
      target_id uuid not null,
      target_tenant_id uuid references tenants (id),
      details jsonb not null default '{}' check (jsonb_typeof(details) = 'object'),
      ip text,
      request_id text,
      created_at timestamptz not null default now()
    );
    create index admin_audit_log_target_idx on admin_audit_log (target_type, target_id, created_at);
    create index admin_audit_log_admin_idx on admin_audit_log (admin_user_id, created_at);
    alter table admin_audit_log enable row level security;
    alter table admin_audit_log force row level security;
    create policy admin_audit_log_system_only on admin_audit_log using (app_is_system()) with check (app_is_system());
    grant select, insert on admin_audit_log to ${APP_ROLE};
  `);
  await refuseChanges(knex, 'admin_audit_log');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table admin_audit_log; drop function admin_audit_log_refuse_change();');
}
