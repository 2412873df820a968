import type { AdminBalanceMovementInput } from '../../../schemas/admin.js';
import type { BalanceDebited } from '../../../schemas/billing-usage.js';
import { debitBalance } from '../../billing/operations/index.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { recordAdminAction } from '../admin-audit-store.js';
import { actAcrossTenants } from '../admin-scope.js';

/**
 * The billing context's manual debit, in this transaction, with the admin as the movement's actor.
 * A debit the balance does not cover is the admin's input error (422 DEBIT_EXCEEDS_BALANCE), not a
 * payment to make (402): nothing is written.
 */
export const debitUserBalance = defineCommand<AdminBalanceMovementInput, BalanceDebited>({
  name: 'debit_user_balance',
  summary:
    "Admin: debit a user's workspace balance by hand, with the reason; a `balance_debit` movement whose actor is the admin. Never below zero: 422 DEBIT_EXCEEDS_BALANCE, nothing written.",
  input: 'AdminBalanceMovementInput',
  output: 'BalanceDebited',
  callers: ['user'],
  permission: 'admin access',
  async run(input, ctx) {
    await actAcrossTenants(ctx.tx);
    const debited = await debitBalance
      .run({ user_id: input.userId, amount: input.amount, reason: input.reason }, ctx)
      .catch((err: unknown) => {
        if (!(err instanceof AppError) || err.code !== 'INSUFFICIENT_BALANCE') throw err;
        throw new AppError('DEBIT_EXCEEDS_BALANCE', `${err.message} A balance never goes below zero.`, {
          body: err.extra.body,
          retryable: false,
        });
      });
    await recordAdminAction(ctx.tx, ctx.caller, {
      action: 'balance.debited',
      targetType: 'user',
      targetId: input.userId,
      targetTenantId: debited.tenant_id,
      details: {
        amount: debited.amount,
        balance: debited.balance,
        reason: input.reason,
        transaction_id: debited.transaction_id,
      },
    });
    return debited;
  },
});
