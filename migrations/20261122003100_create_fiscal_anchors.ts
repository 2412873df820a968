import type { Knex } from 'knex';
import { refuseChanges } from './support/append-only.js';
import { isolateByTenant } from './support/tenant-isolation.js';

/**
 * RFC 3161 anchors of fiscal closings (spec "Fiscal records": Anchor; DECISIONS.md "Fiscal
 * ledger"). An anchor is written `pending` in the closing's transaction; a worker asks a TSA and
 * completes it once, to `anchored` (a token that verified) or `failed` (the TSA refused, or its
 * token did not verify). That single transition is the only change a row ever takes: the trigger
 * refuses any other update, and every DELETE or TRUNCATE, for every role. Each call to the TSA is
 * kept in `fiscal_anchor_attempts`, append-only, so retries are on record.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table fiscal_anchors (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references tenants (id),
      sub_tenant_id uuid,
      environment text not null check (environment in ('sandbox', 'production')),
      type text not null check (type = 'closing'),
      entity_id uuid not null references fiscal_closings (id),
      data_hash char(64) not null check (data_hash ~ '^[0-9a-f]{64}$'),
      status text not null default 'pending' check (status in ('pending', 'anchored', 'failed')),
      tsa_name text,
      tsa_url text,
      anchor_reference text,
      anchored_at timestamptz,
      policy text,
      nonce text,
      token text,
      certificate_chain text,
      ca_certificate text,
      verified boolean not null default false,
      failure_reason text,
      created_at timestamptz not null,
      completed_at timestamptz,
      unique (type, entity_id),
      constraint fiscal_anchors_pending check (status <> 'pending' or (token is null and completed_at is null and not verified)),
      constraint fiscal_anchors_anchored check (status <> 'anchored'
        or (verified and token is not null and anchored_at is not null and ca_certificate is not null and completed_at is not null)),
      constraint fiscal_anchors_failed check (status <> 'failed' or (failure_reason is not null and not verified))
    );
    create index fiscal_anchors_tenant_idx on fiscal_anchors (tenant_id, environment, created_at);
    create index fiscal_anchors_pending_idx on fiscal_anchors (created_at) where status = 'pending';

    create function fiscal_anchors_complete_once() returns trigger language plpgsql as $$
    begin
      if old.status = 'pending' and new.status in ('anchored', 'failed')
        and new.id = old.id and new.tenant_id = old.tenant_id and new.environment = old.environment
        and new.sub_tenant_id is not distinct from old.sub_tenant_id and new.type = old.type
        and new.entity_id = old.entity_id and new.data_hash = old.data_hash and new.created_at = old.created_at then
        return new;
      end if;
      raise exception 'fiscal_anchors is append-only: only a pending anchor is completed, once (% to %)', old.status, new.status
        using errcode = 'restrict_violation';
    end $$;
    create trigger fiscal_anchors_complete_once before update on fiscal_anchors
      for each row execute function fiscal_anchors_complete_once();
    create function fiscal_anchors_refuse_change() returns trigger language plpgsql as $$
    begin
      raise exception 'fiscal_anchors is append-only: % is refused', tg_op using errcode = 'restrict_violation';
    end $$;
    create trigger fiscal_anchors_no_delete before delete on fiscal_anchors
      for each statement execute function fiscal_anchors_refuse_change();
    create trigger fiscal_anchors_no_truncate before truncate on fiscal_anchors
      for each statement execute function fiscal_anchors_refuse_change();

    create table fiscal_anchor_attempts (
      id bigint generated always as identity primary key, -- also the order of attempts made in one instant
      tenant_id uuid not null references tenants (id),
      anchor_id uuid not null references fiscal_anchors (id),
      outcome text not null check (outcome in ('granted', 'waiting', 'rejected', 'invalid', 'unavailable')),
      detail text,
      tsa_url text,
      attempted_at timestamptz not null
    );
    create index fiscal_anchor_attempts_anchor_idx on fiscal_anchor_attempts (anchor_id, attempted_at);
  `);
  await isolateByTenant(knex, 'fiscal_anchors');
  await refuseChanges(knex, 'fiscal_anchor_attempts');
  await isolateByTenant(knex, 'fiscal_anchor_attempts');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop table fiscal_anchor_attempts; drop function fiscal_anchor_attempts_refuse_change();
    drop table fiscal_anchors; drop function fiscal_anchors_refuse_change(); drop function fiscal_anchors_complete_once();
  `);
}
