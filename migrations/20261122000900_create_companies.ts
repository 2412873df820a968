import type { Knex } from 'knex';

/**
 * Legal entities a user (or a tenant's sub-tenant) invoices as. The SIRET is unique among the live
 * companies of one owner; deleting a company keeps its row (invoices will reference it) and frees
 * the SIRET. KYC runs through the identity-verification provider.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table companies (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references tenants (id),
      sub_tenant_id uuid references sub_tenants (id),
      name text not null,
      siret char(14) not null check (siret ~ '^[0-9]{14}$'),
      vat_number text,
      legal_form text,
      address_line1 text not null,
      address_line2 text,
      postal_code text not null,
      city text not null,
      country char(2) not null default 'FR',
      phone text,
      email text,
      website text,
      status text not null default 'active' check (status in ('active', 'inactive')),
      kyc_status text not null default 'not_started'
        check (kyc_status in ('not_started', 'pending', 'completed', 'failed')),
      kyc_reference text,
      kyc_started_at timestamptz,
      kyc_completed_at timestamptz,
      kyc_failure_reason text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      deleted_at timestamptz
    );
    create unique index companies_siret_unique on companies (tenant_id, siret) where deleted_at is null;
    create index companies_tenant_idx on companies (tenant_id, created_at desc) where deleted_at is null;
    create index companies_sub_tenant_idx on companies (sub_tenant_id) where sub_tenant_id is not null;
    alter table api_keys add constraint api_keys_company_fk foreign key (company_id) references companies (id);
    alter table api_keys add constraint api_keys_sub_tenant_fk foreign key (sub_tenant_id) references sub_tenants (id);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table api_keys drop constraint api_keys_company_fk, drop constraint api_keys_sub_tenant_fk;
    drop table companies;
  `);
}
