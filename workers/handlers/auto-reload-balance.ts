import { runAutoReload } from '../../domain/billing/operations/index.js';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import type { JobHandler } from '../job-handler.js';

/** Charges a pending auto-reload; a second run finds it settled and does nothing. */
export const autoReloadBalance: JobHandler<'auto-reload-balance'> = async ({ tenantId, topUpId }, deps) => {
  const topUp = await execute(runAutoReload, { top_up_id: topUpId }, systemCaller(tenantId, 'production'), deps);
  return { top_up_id: topUp.id, status: topUp.status };
};
