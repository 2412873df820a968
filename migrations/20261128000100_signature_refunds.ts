import type { Knex } from 'knex';

const TYPES_BEFORE = `'invoice_created', 'credit_note_created', 'signature_created',
        'balance_topup', 'balance_credit', 'balance_debit', 'billing_discount', 'billing_vat'`;

/**
 * `signature_refunded`: a failed production signature request's charge given back
 * (docs/decisions/0092). The unique index makes the refund once per request, whatever retries a
 * worker makes, and serves the monthly usage, which counts a refunded request out.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table balance_transactions drop constraint balance_transactions_type_check;
    alter table balance_transactions add constraint balance_transactions_type_check check (type in (
        ${TYPES_BEFORE},
        'signature_refunded'
      ));
    create unique index balance_transactions_signature_refund_idx on balance_transactions (tenant_id, reference_id)
      where type = 'signature_refunded';
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop index balance_transactions_signature_refund_idx;
    delete from balance_transactions where type = 'signature_refunded';
    alter table balance_transactions drop constraint balance_transactions_type_check;
    alter table balance_transactions add constraint balance_transactions_type_check check (type in (${TYPES_BEFORE}));
  `);
}
