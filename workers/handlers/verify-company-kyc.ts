import { providerUnavailable } from '../../domain/companies/index.js';
import { getCompanyKycStatus, recordCompanyKyc } from '../../domain/companies/operations/index.js';
import { AppError, isAppError } from '../../domain/shared/app-error.js';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import type { JobHandler } from '../job-handler.js';

/**
 * Asks the KYC provider for the outcome of one verification, outside any transaction, and records
 * it. A verification already recorded (or replaced, or a deleted company) is skipped; one still
 * pending at the provider throws, so pg-boss asks again later (domain/shared/queues.ts).
 */
export const verifyCompanyKyc: JobHandler<'verify-company-kyc'> = async (job, deps) => {
  const caller = systemCaller(job.tenantId);
  const current = await execute(getCompanyKycStatus, { id: job.companyId }, caller, deps).catch((err: unknown) => {
    if (isAppError(err) && err.code === 'NOT_FOUND') return null; // deleted since
    throw err;
  });
  if (current?.status !== 'pending' || current.reference !== job.reference) {
    return { skipped: true, status: current?.status ?? 'deleted' };
  }
  const outcome = await deps.kycProvider.check({ reference: job.reference, siret: job.siret }).catch((err: unknown) => {
    throw providerUnavailable(err);
  });
  if (outcome.status === 'pending') {
    throw new AppError('PROVIDER_UNAVAILABLE', `KYC ${job.reference} is still pending at the provider.`, {
      retryable: true,
    });
  }
  return execute(
    recordCompanyKyc,
    {
      company_id: job.companyId,
      reference: job.reference,
      outcome: outcome.status,
      ...(outcome.status === 'rejected' ? { reason: outcome.reason.slice(0, 1000) } : {}),
    },
    caller,
    deps,
  );
};
