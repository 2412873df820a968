import type { Knex } from 'knex';
import type { TopUp } from '../../schemas/top-ups.js';
import type { Environment } from '../shared/caller.js';
import { moneyToJson } from './money.js';
import type { PaymentProviderKind } from './payment-provider.js';

export interface TopUpRow {
  id: string;
  tenant_id: string;
  environment: Environment;
  source: 'checkout' | 'auto_reload';
  provider: PaymentProviderKind;
  amount: string;
  currency: string;
  status: 'pending' | 'succeeded' | 'failed' | 'canceled';
  checkout_session_id: string | null;
  payment_intent_id: string | null;
  failure_reason: string | null;
  balance_transaction_id: string | null;
  created_at: Date;
  completed_at: Date | null;
}

export interface PaymentMethodRow {
  tenant_id: string;
  provider: PaymentProviderKind;
  customer_id: string;
  payment_method_id: string | null;
  source_payment_intent_id: string | null;
}

/** Cents of a `numeric(14, 2)` amount, exactly (no float arithmetic). */
export const centsOf = (amount: string): number => Number(amount.replace('.', '').replace(/^(-?)0+(?=\d)/, '$1'));

/** A top-up of one tenant, by our id, its Checkout Session or its PaymentIntent. */
export function findTopUp(
  tx: Knex,
  tenantId: string,
  by: { id: string } | { checkout_session_id: string } | { payment_intent_id: string },
): Promise<TopUpRow | undefined> {
  return tx('top_ups')
    .where({ tenant_id: tenantId, ...by })
    .first<TopUpRow | undefined>();
}

/** The top-up view, with the balance its credit left (from its balance transaction). */
export async function topUpView(tx: Knex, row: TopUpRow): Promise<TopUp> {
  const credit = row.balance_transaction_id
    ? await tx('balance_transactions')
        .where({ id: row.balance_transaction_id })
        .first<{ balance_after: string } | undefined>('balance_after')
    : undefined;
  return {
    id: row.id,
    source: row.source,
    provider: row.provider,
    status: row.status,
    amount: moneyToJson(row.amount),
    currency: row.currency,
    environment: row.environment,
    checkout_session_id: row.checkout_session_id,
    payment_intent_id: row.payment_intent_id,
    credited: row.balance_transaction_id !== null,
    balance: credit ? moneyToJson(credit.balance_after) : null,
    failure_reason: row.failure_reason,
    created_at: row.created_at.toISOString(),
    completed_at: row.completed_at?.toISOString() ?? null,
  };
}

export function findPaymentMethod(tx: Knex, tenantId: string): Promise<PaymentMethodRow | undefined> {
  return tx('billing_payment_methods').where({ tenant_id: tenantId }).first<PaymentMethodRow | undefined>();
}

/** Saves the customer and card of a production checkout, for auto-reloads (the latest one wins). */
export async function savePaymentMethod(tx: Knex, row: PaymentMethodRow & { updated_at: Date }): Promise<void> {
  await tx('billing_payment_methods').insert(row).onConflict('tenant_id').merge();
}
