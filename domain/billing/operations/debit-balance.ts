import type { BalanceDebited, DebitBalanceInput } from '../../../schemas/billing-usage.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { balanceOwner } from '../balance-owner.js';
import { applyBalanceMovement } from '../balance-store.js';
import { hasAtMostTwoDecimals, moneyToJson, toMoney } from '../money.js';

/**
 * The operator's manual debit (spec: `balance_debit`), in the same ledger of movements as every
 * other: the balance never goes below zero, so a debit it does not cover is 402 and writes nothing.
 */
export const debitBalance = defineCommand<DebitBalanceInput, BalanceDebited>({
  name: 'debit_balance',
  summary:
    "Debit a tenant's or a user's prepaid production balance by hand, with the reason recorded; never below zero.",
  input: 'DebitBalanceInput',
  output: 'BalanceDebited',
  callers: ['system'],
  async run(input, ctx) {
    const amount = toMoney(input.amount);
    if (!hasAtMostTwoDecimals(amount)) throw AppError.validation({ amount: ['must have at most 2 decimals'] });
    const tenantId = await balanceOwner(ctx.tx, input);
    const result = await applyBalanceMovement(ctx.tx, tenantId, {
      type: 'balance_debit',
      amount: amount.negated(),
      reason: input.reason,
      actor: ctx.caller.kind === 'system' ? 'operator' : (ctx.caller.userId ?? null),
      now: ctx.clock.now(),
      onlyIfCovered: true,
    });
    if (!result) {
      const balance = await ctx
        .tx('balances')
        .where({ tenant_id: tenantId })
        .first<{ amount: string } | undefined>('amount');
      if (!balance) throw new AppError('NOT_FOUND', `No balance for tenant ${tenantId}.`);
      throw new AppError(
        'INSUFFICIENT_BALANCE',
        `The balance (${balance.amount} EUR) does not cover a debit of ${amount.toFixed(2)} EUR.`,
        { body: { required: moneyToJson(amount), balance: moneyToJson(balance.amount) }, retryable: false },
      );
    }
    return {
      tenant_id: tenantId,
      transaction_id: result.transactionId,
      amount: moneyToJson(amount.negated()),
      balance: moneyToJson(result.balanceAfter),
      currency: result.currency,
    };
  },
});
