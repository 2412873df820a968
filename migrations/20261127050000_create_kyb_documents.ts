import type { Knex } from 'knex';
import { isolateByTenant } from './support/tenant-isolation.js';

/**
 * KYB documents (spec "KYB document", "KYB status"; ADR 0064).
 * - `kyb_documents`: what a tenant uploaded to get verified: its `type`, the file's name, media
 *   type, size and SHA-256, and its bytes sealed (AES-256-GCM under a key derived from APP_KEY, the
 *   document id authenticated with them: `content_sealed` never holds the file in clear). Each
 *   document is reviewed by an admin: `pending`, then `approved` or `rejected` (with a reason).
 * - `tenants.kyb_rejection_reason`: why the last review refused the tenant's KYB (kept until it is
 *   verified), and `tenants.kyb_submitted_at`: when it last went to `documents_submitted`, the order
 *   of the admins' queue.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table kyb_documents (
      id uuid primary key,
      tenant_id uuid not null references tenants (id),
      type text not null check (type in ('kbis', 'id_card', 'articles', 'proof_of_address')),
      filename text not null check (char_length(filename) between 1 and 255),
      content_type text not null check (content_type in ('application/pdf', 'image/jpeg', 'image/png')),
      byte_size integer not null check (byte_size between 1 and 10485760),
      sha256 char(64) not null,
      content_sealed bytea not null,
      status text not null default 'pending' check (status in ('pending', 'approved', 'rejected')),
      review_reason text check (char_length(review_reason) <= 1000),
      reviewed_at timestamptz,
      reviewed_by uuid,
      created_at timestamptz not null default now(),
      constraint kyb_documents_reviewed check ((status = 'pending') = (reviewed_at is null)),
      constraint kyb_documents_rejected_reason check (status <> 'rejected' or review_reason is not null)
    );
    alter table kyb_documents alter column content_sealed set storage external;
    create index kyb_documents_tenant_idx on kyb_documents (tenant_id, created_at, id);

    alter table tenants
      add column kyb_rejection_reason text check (char_length(kyb_rejection_reason) <= 1000),
      add column kyb_submitted_at timestamptz;
    create index tenants_kyb_waiting_idx on tenants (kyb_submitted_at, id)
      where kyb_status in ('documents_submitted', 'under_review');
  `);
  await isolateByTenant(knex, 'kyb_documents');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop index tenants_kyb_waiting_idx;
    alter table tenants drop column kyb_submitted_at, drop column kyb_rejection_reason;
    drop table kyb_documents;
  `);
}
