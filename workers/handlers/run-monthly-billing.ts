import { runMonthlyBilling } from '../../domain/billing/operations/index.js';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import type { JobHandler } from '../job-handler.js';

/** The monthly schedule: one `bill-tenant-month` job per tenant with paid usage in the month that ended. */
export const runMonthlyBillingJob: JobHandler<'run-monthly-billing'> = (_payload, deps) =>
  execute(runMonthlyBilling, {}, systemCaller(), deps);
