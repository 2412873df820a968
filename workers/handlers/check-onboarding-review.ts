import { getOnboardingReview, recordOnboardingReview } from '../../domain/onboarding/operations/index.js';
import { AppError } from '../../domain/shared/app-error.js';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import type { JobHandler } from '../job-handler.js';

/**
 * Asks the onboarding provider, outside any transaction, whether it has verified a company it was
 * reviewing (SuperPDP: `oauth2_sessions/me`, 403 on company routes meanwhile), and records the
 * verdict. A session no longer under review is skipped; one still under review throws, so pg-boss
 * asks again later with backoff (domain/shared/queues.ts).
 */
export const checkOnboardingReview: JobHandler<'check-onboarding-review'> = async (job, deps) => {
  const caller = systemCaller(job.tenantId);
  const target = await execute(getOnboardingReview, { session_id: job.sessionId }, caller, deps);
  if (target.onboarding_status !== 'superpdp_pending_review' || !target.provider || !target.connection_id) {
    return { skipped: true, onboarding_status: target.onboarding_status };
  }
  const provider = deps.onboardingProviders.ofKind(target.provider);
  const token = await provider.accessTokenOf({
    id: target.connection_id,
    tenantId: target.connection_tenant_id ?? job.tenantId,
    environment: target.environment,
  });
  const company = await provider.company(token);
  if (company.verification === 'needs_review') {
    throw new AppError(
      'PROVIDER_UNAVAILABLE',
      `Onboarding ${job.sessionId}: the provider is still reviewing the company.`,
      {
        retryable: true,
      },
    );
  }
  return execute(
    recordOnboardingReview,
    { session_id: job.sessionId, verification: company.verification, name: company.name, siret: company.siret },
    caller,
    deps,
  );
};
