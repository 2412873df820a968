import type {
  OnboardingAuthorization,
  OnboardingAuthorizeInput,
  ResumeOnboardingInput,
} from '../../../schemas/onboarding.js';
import { verifyToken } from '../../auth/index.js';
import { AppError } from '../../shared/app-error.js';
import type { Environment } from '../../shared/caller.js';
import { defineCommand, type OperationContext } from '../../shared/operation.js';
import { seal } from '../../shared/secret-box.js';
import { enterTenant } from '../../shared/tenant-context.js';
import { appKeyOf } from '../onboarding-keys.js';
import {
  assertOpen,
  FINISHED,
  requireSession,
  resumeKeyOptions,
  type SessionRow,
  sessionOwnerOf,
  type Variant,
} from '../onboarding-session.js';
import { codeChallengeOf, randomSecret, sha256Hex, verifierContext } from '../pkce.js';

/**
 * A fresh `state` (its hash stored, single use) and PKCE verifier (sealed) for the session, and the
 * provider's authorization URL. Asking again replaces both: only the newest URL can finish.
 */
async function authorize(row: SessionRow, ctx: OperationContext): Promise<OnboardingAuthorization> {
  const now = ctx.clock.now();
  assertOpen(row, now);
  if (FINISHED.includes(row.status)) {
    throw new AppError('ONBOARDING_SESSION_EXPIRED', 'This onboarding session is already finished.');
  }
  const provider = ctx.deps.onboardingProviders.forEnvironment(row.environment);
  const state = randomSecret();
  const verifier = randomSecret();
  await ctx
    .tx('onboarding_sessions')
    .where({ id: row.id })
    .update({
      status: 'superpdp_redirected',
      provider: provider.kind,
      state_hash: sha256Hex(state),
      state_used_at: null,
      code_verifier_sealed: seal(appKeyOf(ctx.deps), verifier, verifierContext(row.id)),
      failure_reason: null,
      updated_at: now,
    });
  const loginHint = typeof row.metadata.email === 'string' ? row.metadata.email : null;
  return {
    authorize_url: provider.authorizeUrl({ state, codeChallenge: codeChallengeOf(verifier), loginHint }),
    state,
  };
}

const authorizeFor = (variant: Variant) => async (input: OnboardingAuthorizeInput, ctx: OperationContext) =>
  authorize(
    await requireSession(ctx.tx, sessionOwnerOf(ctx.caller), variant, input.session_id, { forUpdate: true }),
    ctx,
  );

export const authorizeOnboarding = defineCommand<OnboardingAuthorizeInput, OnboardingAuthorization>({
  name: 'authorize_onboarding',
  summary:
    "The provider's authorization URL for a partner onboarding session, with its single-use `state` (PKCE S256; the verifier stays on the server). Open it in a popup.",
  input: 'OnboardingAuthorizeInput',
  output: 'OnboardingAuthorization',
  callers: ['publishable'],
  run: authorizeFor('partner'),
});

export const authorizeTenantOnboarding = defineCommand<OnboardingAuthorizeInput, OnboardingAuthorization>({
  name: 'authorize_tenant_onboarding',
  summary:
    "The provider's authorization URL for a sub-tenant onboarding session, with its single-use `state` (PKCE S256). 503 when the environment has no provider.",
  input: 'OnboardingAuthorizeInput',
  output: 'OnboardingAuthorization',
  callers: ['publishable'],
  run: authorizeFor('tenant'),
});

/** The resume link (`resume_url`, `redirect_url`): a new authorization for the session it names. */
export const resumeOnboarding = defineCommand<ResumeOnboardingInput, OnboardingAuthorization>({
  name: 'resume_onboarding',
  summary: "Follow a session's signed resume link: a new authorization URL for it (the link's page redirects there).",
  input: 'ResumeOnboardingInput',
  output: 'OnboardingAuthorization',
  callers: ['anonymous'],
  async run(input, ctx) {
    const claims = verifyToken<{ sid: string; tid: string; env: Environment }>(
      resumeKeyOptions(ctx.deps.config, ctx.clock.now()),
      input.token,
    );
    if (!claims) throw new AppError('NOT_FOUND', 'This onboarding link is not valid or has expired.');
    await enterTenant(ctx.tx, claims.tid);
    const row = await ctx
      .tx('onboarding_sessions')
      .where({ id: claims.sid, tenant_id: claims.tid, environment: claims.env })
      .forUpdate()
      .first<SessionRow | undefined>();
    if (!row) throw new AppError('NOT_FOUND', 'This onboarding link is not valid or has expired.');
    return authorize(row, ctx);
  },
});
