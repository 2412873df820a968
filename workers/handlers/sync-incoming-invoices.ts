import { syncIncomingInvoices } from '../../domain/incoming/operations/index.js';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import type { JobHandler } from '../job-handler.js';

/** One provider account's inbox, from its cursor; a retry resumes after the last stored page. */
export const syncIncomingInvoicesJob: JobHandler<'sync-incoming-invoices'> = (job, deps) =>
  execute(
    syncIncomingInvoices,
    {
      account_id: job.accountId,
      tenant_id: job.tenantId,
      environment: job.environment,
      sub_tenant_id: job.subTenantId,
    },
    systemCaller(job.tenantId, job.environment),
    deps,
  );
