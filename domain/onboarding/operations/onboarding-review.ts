import type {
  OnboardingReviewInput,
  OnboardingReviewOutcome,
  OnboardingReviewTarget,
  RecordOnboardingReviewInput,
} from '../../../schemas/onboarding.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand, defineQuery } from '../../shared/operation.js';
import { onboardingCompletedData } from '../onboarding-events.js';
import type { SessionRow } from '../onboarding-session.js';

const sessionOf = async (tx: import('knex').Knex, tenantId: string | null, id: string, lock = false) => {
  const query = tx('onboarding_sessions').where({ id, tenant_id: tenantId }).first<SessionRow | undefined>();
  if (lock) query.forUpdate();
  const row = await query;
  if (!row) throw new AppError('NOT_FOUND', `No onboarding session ${id}.`);
  return row;
};

export const getOnboardingReview = defineQuery<OnboardingReviewInput, OnboardingReviewTarget>({
  name: 'get_onboarding_review',
  summary: 'Internal (review job): a session under review and its provider connection.',
  input: 'OnboardingReviewInput',
  output: 'OnboardingReviewTarget',
  callers: ['system'],
  async run(input, ctx) {
    const row = await sessionOf(ctx.tx, ctx.caller.tenantId, input.session_id);
    return {
      session_id: row.id,
      onboarding_status: row.status,
      provider: row.provider,
      connection_id: row.provider_connection_id,
      connection_tenant_id: row.created_tenant_id ?? row.tenant_id,
      environment: row.environment,
    };
  },
});

/**
 * The provider's verdict on a company it was reviewing: verified makes the connection active,
 * fills in the name and SIRET the provider now shows, completes the session and sends
 * `onboarding.completed`; failed fails them. A session no longer under review is left alone.
 */
export const recordOnboardingReview = defineCommand<RecordOnboardingReviewInput, OnboardingReviewOutcome>({
  name: 'record_onboarding_review',
  summary: "Internal (review job): record the provider's verdict on a company under review.",
  input: 'RecordOnboardingReviewInput',
  output: 'OnboardingReviewOutcome',
  callers: ['system'],
  async run(input, ctx) {
    const now = ctx.clock.now();
    const row = await sessionOf(ctx.tx, ctx.caller.tenantId, input.session_id, true);
    if (row.status !== 'superpdp_pending_review') return { onboarding_status: row.status };
    const verified = input.verification === 'verified';
    if (row.provider_connection_id) {
      await ctx
        .tx('provider_connections')
        .where({ id: row.provider_connection_id })
        .update({ status: verified ? 'active' : 'failed', updated_at: now });
    }
    const names = { ...(input.name ? { name: input.name } : {}), ...(input.siret ? { siret: input.siret } : {}) };
    if (verified && row.created_tenant_id && Object.keys(names).length) {
      await ctx
        .tx('tenants')
        .where({ id: row.created_tenant_id })
        .update({ ...names, updated_at: now });
    }
    if (row.sub_tenant_id) {
      await ctx
        .tx('sub_tenants')
        .where({ id: row.sub_tenant_id })
        .update({
          ...(verified ? names : {}),
          onboarding_status: verified ? 'completed' : 'in_progress',
          updated_at: now,
        });
    }
    const [updated] = await ctx
      .tx('onboarding_sessions')
      .where({ id: row.id })
      .update({
        status: verified ? 'active' : 'superpdp_failed',
        completed_at: verified ? now : null,
        failure_reason: verified ? null : 'The provider could not verify the company.',
        updated_at: now,
      })
      .returning<SessionRow[]>('*');
    if (verified) {
      await ctx.events.emit(
        'onboarding.completed',
        onboardingCompletedData(updated, input.name ?? row.external_id ?? ''),
        {
          tenantId: row.tenant_id,
          environment: row.environment,
        },
      );
    }
    return { onboarding_status: updated.status };
  },
});
