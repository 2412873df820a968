import type { EmptyInput } from '../../../schemas/common.js';
import { AppError } from '../../shared/app-error.js';
import { defineQuery } from '../../shared/operation.js';
import { tenantWideCaller } from '../../tenants/index.js';
import { type BalanceView, readBalance } from '../balance-view.js';

export const getTenantBalance = defineQuery<EmptyInput, BalanceView>({
  name: 'get_tenant_balance',
  summary: "Read the calling tenant's prepaid production balance (EUR) with its alert and auto-reload settings.",
  input: 'EmptyInput',
  output: 'Balance',
  callers: ['tenant'],
  async run(_input, ctx) {
    const { tenantId } = tenantWideCaller(ctx.caller, 'get_tenant_balance');
    const balance = await readBalance(ctx.tx, tenantId);
    if (!balance) throw new AppError('NOT_FOUND', 'No balance for this tenant.');
    return balance;
  },
});
