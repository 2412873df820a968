import type { UpdateBalanceSettingsInput } from '../../../schemas/billing.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { type BalanceView, readBalance } from '../balance-view.js';
import { hasAtMostTwoDecimals, toMoney } from '../money.js';

export const updateBalanceSettings = defineCommand<UpdateBalanceSettingsInput, BalanceView>({
  name: 'update_balance_settings',
  summary: 'Change the low and critical balance alert thresholds and the auto-reload settings.',
  input: 'UpdateBalanceSettingsInput',
  output: 'Balance',
  callers: ['user'],
  async run(input, ctx) {
    const tenantId = ctx.caller.tenantId!;
    const errors: Record<string, string[]> = {};
    for (const [field, value] of Object.entries(input)) {
      if (typeof value === 'number' && !hasAtMostTwoDecimals(toMoney(value)))
        errors[field] = ['must have at most 2 decimals'];
    }
    const current = await readBalance(ctx.tx, tenantId);
    if (!current) throw new AppError('NOT_FOUND', 'No balance for this account.');
    const next = { ...current, ...input };
    if (next.critical_balance_alert_threshold > next.low_balance_alert_threshold) {
      errors.critical_balance_alert_threshold = ['must not exceed low_balance_alert_threshold'];
    }
    if (next.auto_reload_enabled && (next.auto_reload_threshold === null || next.auto_reload_amount === null)) {
      errors.auto_reload_enabled = ['needs auto_reload_threshold and auto_reload_amount'];
    }
    if (Object.keys(errors).length) throw AppError.validation(errors);
    await ctx
      .tx('balances')
      .where({ tenant_id: tenantId })
      .update({ ...input, updated_at: ctx.clock.now() });
    return (await readBalance(ctx.tx, tenantId))!;
  },
});
