import type { Knex } from 'knex';
import type { Decimal } from './money.js';

/**
 * Every kind of balance movement: the spec's transaction types, plus `balance_credit` by an
 * operator, the monthly billing's `billing_discount` (the volume discount credited back) and
 * `billing_vat` (the month's VAT debited; docs/decisions/0054), and `signature_refunded` (a failed
 * signature request's charge given back; docs/decisions/0092).
 */
export const BALANCE_TRANSACTION_TYPES = [
  'invoice_created',
  'credit_note_created',
  'signature_created',
  'balance_topup',
  'balance_credit',
  'balance_debit',
  'billing_discount',
  'billing_vat',
  'signature_refunded',
] as const;
export type BalanceTransactionType = (typeof BALANCE_TRANSACTION_TYPES)[number];

export interface BalanceMovement {
  type: BalanceTransactionType;
  /** Signed: positive credits, negative debits. */
  amount: Decimal;
  reason?: string | null;
  referenceType?: string | null;
  referenceId?: string | null;
  actor?: string | null;
  now: Date;
  /** A debit that must not overdraw: when the balance does not cover it, nothing happens (returns undefined). */
  onlyIfCovered?: boolean;
}

interface BalanceAfterRow {
  amount: string;
  currency: string;
  low_balance_alert_threshold: string;
  critical_balance_alert_threshold: string;
  auto_reload_enabled: boolean;
  auto_reload_threshold: string | null;
  auto_reload_amount: string | null;
}

/** A movement written: the balance it left and the alert settings read by the same statement. */
export interface AppliedMovement {
  transactionId: string;
  balanceAfter: string;
  currency: string;
  settings: {
    lowThreshold: string;
    criticalThreshold: string;
    autoReloadEnabled: boolean;
    autoReloadThreshold: string | null;
    autoReloadAmount: string | null;
  };
}

/**
 * Applies a movement to the tenant's balance and records it, in the caller's transaction. The
 * UPDATE locks the balance row, so concurrent movements serialise; the `amount >= 0` check makes an
 * overdraft impossible (the caller maps that to INSUFFICIENT_BALANCE).
 */
export async function applyBalanceMovement(
  tx: Knex,
  tenantId: string,
  movement: BalanceMovement,
): Promise<AppliedMovement | undefined> {
  const [balance] = await tx('balances')
    .where({ tenant_id: tenantId })
    .modify((q) => {
      if (movement.onlyIfCovered) q.andWhere('amount', '>=', movement.amount.negated().toFixed(2));
    })
    .update({ amount: tx.raw('amount + ?::numeric', [movement.amount.toFixed(2)]), updated_at: movement.now })
    .returning<BalanceAfterRow[]>([
      'amount',
      'currency',
      'low_balance_alert_threshold',
      'critical_balance_alert_threshold',
      'auto_reload_enabled',
      'auto_reload_threshold',
      'auto_reload_amount',
    ]);
  if (!balance) return undefined;
  const [row] = await tx('balance_transactions')
    .insert({
      tenant_id: tenantId,
      type: movement.type,
      amount: movement.amount.toFixed(2),
      balance_after: balance.amount,
      currency: balance.currency,
      reason: movement.reason ?? null,
      reference_type: movement.referenceType ?? null,
      reference_id: movement.referenceId ?? null,
      actor: movement.actor ?? null,
      created_at: movement.now,
    })
    .returning<{ id: string }[]>('id');
  return {
    transactionId: row.id,
    balanceAfter: balance.amount,
    currency: balance.currency,
    settings: {
      lowThreshold: balance.low_balance_alert_threshold,
      criticalThreshold: balance.critical_balance_alert_threshold,
      autoReloadEnabled: balance.auto_reload_enabled,
      autoReloadThreshold: balance.auto_reload_threshold,
      autoReloadAmount: balance.auto_reload_amount,
    },
  };
}
