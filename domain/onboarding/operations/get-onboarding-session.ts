import type { OnboardingSession, OnboardingSessionIdInput } from '../../../schemas/onboarding.js';
import { AppError } from '../../shared/app-error.js';
import { defineQuery } from '../../shared/operation.js';
import { requireSession, sessionOwnerOf, toSessionView } from '../onboarding-session.js';

export const getOnboardingSession = defineQuery<OnboardingSessionIdInput, OnboardingSession>({
  name: 'get_onboarding_session',
  summary: 'Read a partner onboarding session: its status (`pending`, `completed`), the step it is at, and its expiry.',
  input: 'OnboardingSessionIdInput',
  output: 'OnboardingSession',
  callers: ['publishable'],
  async run(input, ctx) {
    const row = await requireSession(ctx.tx, sessionOwnerOf(ctx.caller), 'partner', input.id);
    return toSessionView(ctx.deps.config, row, ctx.clock.now());
  },
});

export const getTenantOnboardingSession = defineQuery<OnboardingSessionIdInput, OnboardingSession>({
  name: 'get_tenant_onboarding_session',
  summary: 'Read a sub-tenant onboarding session: its status, the sub-tenant it created and when it completed.',
  input: 'OnboardingSessionIdInput',
  output: 'OnboardingSession',
  callers: ['tenant', 'publishable'],
  async run(input, ctx) {
    // Onboarding sessions are the whole tenant's, as their creation is: not for a key bound to one sub-tenant.
    if (ctx.caller.subTenantId) {
      throw new AppError('FORBIDDEN', "A key bound to a sub-tenant cannot read the tenant's onboarding sessions.");
    }
    const row = await requireSession(ctx.tx, sessionOwnerOf(ctx.caller), 'tenant', input.id);
    return toSessionView(ctx.deps.config, row, ctx.clock.now());
  },
});
