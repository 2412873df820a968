import { scheduleFiscalClosings } from '../../domain/ledger/operations/index.js';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import type { JobHandler } from '../job-handler.js';

/** The 00:00 UTC schedule (hourly, to catch up a missed night): one `close-fiscal-chain` job per chain due. */
export const closeFiscalPeriods: JobHandler<'close-fiscal-periods'> = (_payload, deps) =>
  execute(scheduleFiscalClosings, {}, systemCaller(), deps);
