import type {
  CreateOnboardingSessionInput,
  CreateTenantOnboardingSessionInput,
  OnboardingSession,
} from '../../../schemas/onboarding.js';
import { AppError } from '../../shared/app-error.js';
import type { Caller } from '../../shared/caller.js';
import { defineCommand, type OperationContext } from '../../shared/operation.js';
import {
  SESSION_TTL_SECONDS,
  type SessionRow,
  sessionOwnerOf,
  toSessionView,
  type Variant,
} from '../onboarding-session.js';

async function createSession(
  variant: Variant,
  input: CreateOnboardingSessionInput,
  ctx: OperationContext,
): Promise<OnboardingSession> {
  const owner = sessionOwnerOf(ctx.caller);
  const now = ctx.clock.now();
  const [row] = await ctx
    .tx('onboarding_sessions')
    .insert({
      tenant_id: owner.tenantId,
      environment: owner.environment,
      variant,
      mode: input.mode,
      external_id: input.external_id ?? null,
      callback_url: input.callback_url ?? null,
      client_state: input.state ?? null,
      metadata: input.metadata ?? {},
      expires_at: new Date(now.getTime() + SESSION_TTL_SECONDS * 1000),
      created_at: now,
      updated_at: now,
    })
    .returning<SessionRow[]>('*');
  ctx.log.info({ onboarding_session_id: row.id, variant, mode: row.mode }, 'onboarding session created');
  return toSessionView(ctx.deps.config, row, now);
}

/** Partner onboarding makes tenants: the spec's "Partner-only routes need is_partner". */
function assertPartner(caller: Caller): void {
  if (!caller.isPartner) {
    throw new AppError('FORBIDDEN', 'Only a partner tenant can onboard new tenants; onboard sub-tenants instead.');
  }
}

/** Sub-tenants are the whole tenant's: a key bound to one sub-tenant, or without the scope, is refused. */
export function assertMayOnboardSubTenants(caller: Caller): void {
  if (caller.subTenantId) {
    throw new AppError('FORBIDDEN', 'A key bound to a sub-tenant cannot onboard sub-tenants.');
  }
  if (caller.kind === 'tenant' && !caller.scopes.includes('sub_tenants:write')) {
    throw new AppError('FORBIDDEN', 'Onboarding sub-tenants needs the sub_tenants:write scope.');
  }
}

export const createOnboardingSession = defineCommand<CreateOnboardingSessionInput, OnboardingSession>({
  name: 'create_onboarding_session',
  summary:
    "Start onboarding a company that will get its own tenant under you (partners only), with your publishable key. The session lives 7 days; next, ask for the provider's authorization URL.",
  input: 'CreateOnboardingSessionInput',
  output: 'OnboardingSession',
  callers: ['publishable'],
  run(input, ctx) {
    assertPartner(ctx.caller);
    return createSession('partner', input, ctx);
  },
});

export const createTenantOnboardingSession = defineCommand<CreateTenantOnboardingSessionInput, OnboardingSession>({
  name: 'create_tenant_onboarding_session',
  summary:
    'Start onboarding a company that will become one of your sub-tenants. The session lives 7 days; in redirect mode, send the browser to `redirect_url`.',
  input: 'CreateTenantOnboardingSessionInput',
  output: 'OnboardingSession',
  callers: ['tenant', 'publishable'],
  run(input, ctx) {
    assertMayOnboardSubTenants(ctx.caller);
    return createSession('tenant', input, ctx);
  },
});
