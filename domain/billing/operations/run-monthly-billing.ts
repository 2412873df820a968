import type { MonthlyBillingRun, RunMonthlyBillingInput } from '../../../schemas/billing-invoices.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { addMonths, parisMonth } from '../billing-period.js';
import { tenantsWithUsage } from '../usage-store.js';

/**
 * The monthly run (cron on the 1st, Europe/Paris; or `einvoice billing run` by hand): one
 * `bill-tenant-month` job per platform tenant with paid usage in the month. The job issues the
 * invoice and renders its Factur-X; issuing is idempotent per (tenant, month), so running the month
 * again, or twice at once, issues nothing twice.
 */
export const runMonthlyBilling = defineCommand<RunMonthlyBillingInput, MonthlyBillingRun>({
  name: 'run_monthly_billing',
  summary:
    'Queue the billing of a month that has ended (the last one when not given): one job per platform tenant with paid production usage in it, which issues its invoice and renders the Factur-X.',
  input: 'RunMonthlyBillingInput',
  output: 'MonthlyBillingRun',
  callers: ['system'],
  async run(input, ctx) {
    const current = parisMonth(ctx.clock.now());
    const month = input.month ?? addMonths(current, -1);
    if (month >= current) throw AppError.validation({ month: [`must be a month that has ended (before ${current})`] });
    const tenants = await tenantsWithUsage(ctx.tx, month, input.tenant_id);
    let queued = 0;
    for (const tenantId of tenants) {
      const job = await ctx.jobs.send(
        'bill-tenant-month',
        { tenantId, month },
        { singletonKey: `${tenantId}:${month}`, group: { id: tenantId } },
      );
      if (job) queued++;
    }
    return { month, tenants: tenants.length, queued };
  },
});
