import { AppError } from '../shared/app-error.js';
import type { Environment } from '../shared/caller.js';
import type { OperationContext } from '../shared/operation.js';
import { afterDebit } from './balance-alerts.js';
import { applyBalanceMovement, type BalanceTransactionType } from './balance-store.js';
import { Decimal } from './money.js';
import { type Chargeable, PRICE_CURRENCY, UNIT_PRICES } from './pricing.js';

const TRANSACTION_TYPE: Record<Chargeable, BalanceTransactionType> = {
  invoice: 'invoice_created',
  credit_note: 'credit_note_created',
  signature: 'signature_created',
};

export interface ChargeRequest {
  tenantId: string;
  environment: Environment;
  kind: Chargeable;
  referenceType: string;
  referenceId: string;
  actor: string | null;
  now: Date;
}

/**
 * Debits the unit price of a paid operation in production, in the operation's transaction; sandbox
 * is free. The conditional UPDATE locks the balance row, so concurrent operations of one owner take
 * turns and the balance can never go below zero: when it does not cover the price, 402 and the
 * caller's transaction rolls back with nothing written. A debit that crosses an alert or
 * auto-reload threshold emits the alert and queues the reload in the same transaction
 * (balance-alerts.ts). Returns the amount charged.
 */
export async function chargeFor(ctx: OperationContext, request: ChargeRequest): Promise<Decimal> {
  const { tx } = ctx;
  if (request.environment === 'sandbox') return new Decimal(0);
  const price = new Decimal(UNIT_PRICES[request.kind]);
  const applied = await applyBalanceMovement(tx, request.tenantId, {
    type: TRANSACTION_TYPE[request.kind],
    amount: price.negated(),
    referenceType: request.referenceType,
    referenceId: request.referenceId,
    actor: request.actor,
    now: request.now,
    onlyIfCovered: true,
  });
  if (!applied) {
    const balance = await tx('balances')
      .where({ tenant_id: request.tenantId })
      .first<{ amount: string } | undefined>('amount');
    throw new AppError(
      'INSUFFICIENT_BALANCE',
      `Your balance (${new Decimal(balance?.amount ?? 0).toFixed(2)} ${PRICE_CURRENCY}) does not cover this ${request.kind.replace('_', ' ')} (${price.toFixed(2)} ${PRICE_CURRENCY}). Top up your balance, or use a sandbox key to test for free.`,
      { body: { required: Number(price.toFixed(2)), balance: Number(new Decimal(balance?.amount ?? 0).toFixed(2)) } },
    );
  }
  await afterDebit(ctx, request.tenantId, price, applied);
  return price;
}

export interface RefundRequest {
  tenantId: string;
  /** What the request was charged (its `amount_charged`); nothing is refunded for zero. */
  amount: string;
  referenceType: string;
  referenceId: string;
  reason: string;
  now: Date;
}

/**
 * Gives a failed signature request's charge back to the balance, in the caller's transaction
 * (docs/decisions/0092): a `signature_refunded` credit referencing the request. Once per request:
 * a second refund of it is a no-op (the unique index on refunds makes that hold even for callers
 * that do not lock the request). Returns the amount refunded.
 */
export async function refundSignature(ctx: OperationContext, request: RefundRequest): Promise<Decimal> {
  const amount = new Decimal(request.amount);
  if (amount.lessThanOrEqualTo(0)) return new Decimal(0);
  const already = await ctx
    .tx('balance_transactions')
    .where({ tenant_id: request.tenantId, type: 'signature_refunded', reference_id: request.referenceId })
    .first('id');
  if (already) return new Decimal(0);
  const applied = await applyBalanceMovement(ctx.tx, request.tenantId, {
    type: 'signature_refunded',
    amount,
    reason: request.reason,
    referenceType: request.referenceType,
    referenceId: request.referenceId,
    actor: 'system',
    now: request.now,
  });
  return applied ? amount : new Decimal(0);
}
