import type { BalanceCredited, CreditBalanceInput } from '../../../schemas/billing.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { balanceOwner } from '../balance-owner.js';
import { applyBalanceMovement } from '../balance-store.js';
import { hasAtMostTwoDecimals, moneyToJson, toMoney } from '../money.js';

export const creditBalance = defineCommand<CreditBalanceInput, BalanceCredited>({
  name: 'credit_balance',
  summary: "Credit a tenant's or a user's prepaid production balance by hand, with the reason recorded.",
  input: 'CreditBalanceInput',
  output: 'BalanceCredited',
  callers: ['system'],
  async run(input, ctx) {
    const amount = toMoney(input.amount);
    if (!hasAtMostTwoDecimals(amount)) throw AppError.validation({ amount: ['must have at most 2 decimals'] });
    const tenantId = await balanceOwner(ctx.tx, input);
    const result = await applyBalanceMovement(ctx.tx, tenantId, {
      type: 'balance_credit',
      amount,
      reason: input.reason,
      actor: ctx.caller.kind === 'system' ? 'operator' : (ctx.caller.userId ?? null),
      now: ctx.clock.now(),
    });
    if (!result) throw new AppError('NOT_FOUND', `No balance for tenant ${tenantId}.`);
    return {
      tenant_id: tenantId,
      transaction_id: result.transactionId,
      amount: moneyToJson(amount),
      balance: moneyToJson(result.balanceAfter),
      currency: result.currency,
    };
  },
});
