import type { AdminBalanceMovementInput } from '../../../schemas/admin.js';
import type { BalanceCredited } from '../../../schemas/billing.js';
import { creditBalance } from '../../billing/operations/index.js';
import { defineCommand } from '../../shared/operation.js';
import { recordAdminAction } from '../admin-audit-store.js';
import { actAcrossTenants } from '../admin-scope.js';

/** The billing context's manual credit, in this transaction, with the admin as the movement's actor. */
export const creditUserBalance = defineCommand<AdminBalanceMovementInput, BalanceCredited>({
  name: 'credit_user_balance',
  summary:
    "Admin: credit a user's workspace balance by hand, with the reason; a `balance_credit` movement whose actor is the admin.",
  input: 'AdminBalanceMovementInput',
  output: 'BalanceCredited',
  callers: ['user'],
  permission: 'admin access',
  async run(input, ctx) {
    await actAcrossTenants(ctx.tx);
    const credited = await creditBalance.run(
      { user_id: input.userId, amount: input.amount, reason: input.reason },
      ctx,
    );
    await recordAdminAction(ctx.tx, ctx.caller, {
      action: 'balance.credited',
      targetType: 'user',
      targetId: input.userId,
      targetTenantId: credited.tenant_id,
      details: {
        amount: credited.amount,
        balance: credited.balance,
        reason: input.reason,
        transaction_id: credited.transaction_id,
      },
    });
    return credited;
  },
});
