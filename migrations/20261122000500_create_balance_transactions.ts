import type { Knex } from 'knex';

/** Every movement of a balance, signed (credit > 0, debit < 0), with the balance it left. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table balance_transactions (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references tenants (id),
      type text not null check (type in (
        'invoice_created', 'credit_note_created', 'signature_created',
        'balance_topup', 'balance_credit', 'balance_debit'
      )),
      amount numeric(14, 2) not null check (amount <> 0),
      balance_after numeric(14, 2) not null check (balance_after >= 0),
      currency char(3) not null default 'EUR',
      reason text,
      reference_type text,
      reference_id uuid,
      actor text,
      created_at timestamptz not null default now()
    );
    create index balance_transactions_tenant_idx on balance_transactions (tenant_id, created_at desc);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table balance_transactions');
}
