import type { SettleTopUpInput, TopUp } from '../../../schemas/top-ups.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand, type OperationContext } from '../../shared/operation.js';
import { isUniqueViolation } from '../../shared/pg-errors.js';
import { applyBalanceMovement } from '../balance-store.js';
import { moneyToJson, toMoney } from '../money.js';
import { centsOf, findTopUp, savePaymentMethod, type TopUpRow, topUpView } from '../top-up-store.js';

/**
 * The one path that credits a top-up (ADR 0049), whoever reports the payment first: the confirm
 * route, Stripe's webhook, the simulator's page or the auto-reload job. The conditional update
 * that moves the top-up out of `pending` is the claim: concurrent callers queue on its row lock,
 * and every one but the first finds it no longer pending and changes nothing. `payment_intent_id`
 * is unique, so one PaymentIntent can never credit two top-ups. A sandbox top-up is a rehearsal:
 * it succeeds without crediting the production balance.
 */
export async function applyTopUpOutcome(
  ctx: OperationContext,
  tenantId: string,
  input: SettleTopUpInput,
): Promise<TopUp> {
  const row = await findTopUp(ctx.tx, tenantId, { id: input.top_up_id });
  if (!row) throw new AppError('NOT_FOUND', `No top-up ${input.top_up_id}.`, { retryable: false });
  const now = ctx.clock.now();

  if (input.outcome === 'succeeded') {
    const expected = centsOf(row.amount);
    if (
      !input.payment_intent_id ||
      input.amount_received !== expected ||
      input.currency?.toUpperCase() !== row.currency
    ) {
      throw new AppError(
        'PAYMENT_NOT_COMPLETED',
        `The payment does not match the top-up: ${input.amount_received ?? 0} ${input.currency ?? '?'} received in cents, ${expected} ${row.currency} expected.`,
        { retryable: false },
      );
    }
    let claimed: TopUpRow[];
    try {
      claimed = await ctx
        .tx('top_ups')
        .where({ id: row.id, status: 'pending' })
        .update({ status: 'succeeded', payment_intent_id: input.payment_intent_id, completed_at: now })
        .returning<TopUpRow[]>('*');
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw new AppError('CONFLICT', `PaymentIntent ${input.payment_intent_id} already paid another top-up.`, {
          retryable: false,
        });
      }
      throw err;
    }
    if (claimed.length === 0) return topUpView(ctx.tx, (await findTopUp(ctx.tx, tenantId, { id: row.id }))!);
    return credit(ctx, claimed[0], input);
  }

  const [ended] = await ctx
    .tx('top_ups')
    .where({ id: row.id, status: 'pending' })
    .update({ status: input.outcome, failure_reason: input.failure_reason ?? null, completed_at: now })
    .returning<TopUpRow[]>('*');
  if (!ended) return topUpView(ctx.tx, (await findTopUp(ctx.tx, tenantId, { id: row.id }))!);
  if (ended.source === 'auto_reload' && input.outcome === 'failed') {
    const balance = await ctx.tx('balances').where({ tenant_id: tenantId }).first<{ amount: string }>('amount');
    await ctx.events.emit(
      'balance.auto_reload_failed',
      {
        id: ended.id,
        amount: moneyToJson(ended.amount),
        currency: ended.currency,
        balance: moneyToJson(balance?.amount ?? '0'),
        reason: ended.failure_reason,
      },
      { tenantId, environment: 'production' },
    );
    await ctx.jobs.send(
      'send-balance-alert',
      {
        tenantId,
        kind: 'auto_reload_failed',
        balance: toMoney(balance?.amount ?? '0').toFixed(2),
        threshold: ended.amount,
        reason: ended.failure_reason,
      },
      { group: { id: tenantId } },
    );
  }
  return topUpView(ctx.tx, ended);
}

async function credit(ctx: OperationContext, row: TopUpRow, input: SettleTopUpInput): Promise<TopUp> {
  const now = ctx.clock.now();
  if (row.environment === 'sandbox') return topUpView(ctx.tx, row);
  const applied = await applyBalanceMovement(ctx.tx, row.tenant_id, {
    type: 'balance_topup',
    amount: toMoney(row.amount),
    reason: row.source === 'auto_reload' ? 'auto-reload' : 'top-up',
    referenceType: 'top_up',
    referenceId: row.id,
    actor: row.provider,
    now,
  });
  if (!applied) throw new AppError('NOT_FOUND', `No balance for tenant ${row.tenant_id}.`, { retryable: false });
  const [credited] = await ctx
    .tx('top_ups')
    .where({ id: row.id })
    .update({ balance_transaction_id: applied.transactionId })
    .returning<TopUpRow[]>('*');
  if (input.customer_id && row.source === 'checkout') {
    await savePaymentMethod(ctx.tx, {
      tenant_id: row.tenant_id,
      provider: row.provider,
      customer_id: input.customer_id,
      payment_method_id: input.payment_method_id ?? null,
      source_payment_intent_id: input.payment_intent_id ?? null,
      updated_at: now,
    });
  }
  await ctx.events.emit(
    'balance.topped_up',
    {
      id: row.id,
      amount: moneyToJson(row.amount),
      currency: row.currency,
      balance: moneyToJson(applied.balanceAfter),
      source: row.source,
      payment_intent_id: row.payment_intent_id,
    },
    { tenantId: row.tenant_id, environment: 'production' },
  );
  return topUpView(ctx.tx, credited);
}

export const settleTopUp = defineCommand<SettleTopUpInput, TopUp>({
  name: 'settle_top_up',
  summary: 'Record what the payment provider says of a top-up: credit the balance once when paid, or mark it failed.',
  input: 'SettleTopUpInput',
  output: 'TopUp',
  callers: ['system', 'tenant'],
  run: (input, ctx) => {
    if (!ctx.caller.tenantId) throw new AppError('FORBIDDEN', 'settle_top_up needs a tenant.');
    return applyTopUpOutcome(ctx, ctx.caller.tenantId, input);
  },
});
