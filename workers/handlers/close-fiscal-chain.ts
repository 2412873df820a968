import { closeFiscalChain } from '../../domain/ledger/operations/index.js';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import type { JobHandler } from '../job-handler.js';

/** Closes a chain's due periods; idempotent (one closing per chain, type and period), so a retry is harmless. */
export const closeFiscalChainJob: JobHandler<'close-fiscal-chain'> = (job, deps) =>
  execute(
    closeFiscalChain,
    { tenant_id: job.tenantId, environment: job.environment, sub_tenant_id: job.subTenantId, date: job.date },
    systemCaller(job.tenantId, job.environment),
    deps,
  );
