import type { PerformDailyClosingInput } from '../../../schemas/fiscal-closings.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { closeChainThrough } from '../close-chain.js';
import { addDays, utcDay } from '../closing-periods.js';
import { findClosing } from '../closing-store.js';
import { type ClosingView, closingViews } from '../closing-view.js';
import { fiscalScopeOf } from '../fiscal-scope.js';

export const performDailyClosing = defineCommand<PerformDailyClosingInput, ClosingView>({
  name: 'perform_daily_closing',
  summary:
    'Close a past UTC day of a fiscal chain now (default: yesterday) instead of waiting for the 00:00 UTC run: period, fiscal-year and perpetual totals, sealed with a hash chained to the previous closing and time-stamped (RFC 3161). Idempotent: a day already closed returns its closing; earlier days not yet closed are closed first.',
  input: 'PerformDailyClosingInput',
  output: 'FiscalClosing',
  callers: ['tenant'],
  scope: 'fiscal:write',
  async run(input, ctx) {
    const scope = await fiscalScopeOf(ctx.tx, ctx.caller, input.sub_tenant_id);
    if (input.environment && input.environment !== scope.environment) {
      throw AppError.validation({
        environment: [`must be ${scope.environment}: a key closes its own environment only`],
      });
    }
    const today = utcDay(ctx.clock.now());
    const date = input.date ?? addDays(today, -1);
    if (date >= today) {
      throw AppError.validation({
        date: [`must be a day before today (${today}, UTC): a day is closed once it is over`],
      });
    }
    const chain = { tenantId: scope.tenantId, environment: scope.environment, subTenantId: scope.subTenantId };
    let closing = await findClosing(ctx.tx, chain, 'daily', date);
    if (!closing) {
      await closeChainThrough(ctx, chain, 'daily', date);
      closing = await findClosing(ctx.tx, chain, 'daily', date);
    }
    if (!closing) {
      throw new AppError(
        'INVALID_STATE',
        `Nothing to close: this fiscal chain had no entry by the end of ${date} (UTC). Days are closed from the chain's first entry on.`,
      );
    }
    return (await closingViews(ctx.tx, scope.tenantId, [closing]))[0];
  },
});
