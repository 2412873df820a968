import type { EmptyInput } from '../../../schemas/common.js';
import { AppError } from '../../shared/app-error.js';
import { defineQuery } from '../../shared/operation.js';
import { tenantWideCaller } from '../../tenants/index.js';
import { type BalanceView, readBalance } from '../balance-view.js';

export const getBalance = defineQuery<EmptyInput, BalanceView>({
  name: 'get_balance',
  summary: 'Read the prepaid balance (EUR) with its alert and auto-reload settings.',
  input: 'EmptyInput',
  output: 'Balance',
  callers: ['user', 'tenant'],
  async run(_input, ctx) {
    // The tenant's money: a key bound to one of its sub-tenants does not read it.
    if (ctx.caller.kind === 'tenant') tenantWideCaller(ctx.caller, 'get_balance');
    const balance = await readBalance(ctx.tx, ctx.caller.tenantId!);
    if (!balance) throw new AppError('NOT_FOUND', 'No balance for this account.');
    return balance;
  },
});
