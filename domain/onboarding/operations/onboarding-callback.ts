import { randomUUID } from 'node:crypto';
import type {
  CompleteOnboardingInput,
  OnboardingAuthorizeInput,
  OnboardingCallbackInput,
  OnboardingCallbackResult,
  OnboardingClaim,
  OnboardingReviewOutcome,
  TenantOnboardingCallbackResult,
} from '../../../schemas/onboarding.js';
import { AppError } from '../../shared/app-error.js';
import { execute } from '../../shared/execute.js';
import { defineCommand, type OperationContext } from '../../shared/operation.js';
import { isUniqueViolation } from '../../shared/pg-errors.js';
import { open } from '../../shared/secret-box.js';
import { enterTenant } from '../../shared/tenant-context.js';
import { guardExternalId, insertSubTenant } from '../../sub-tenants/index.js';
import { insertTenantAndEnter } from '../../tenants/index.js';
import { sealedConnectionTokens } from '../../transmission/index.js';
import { onboardingCompletedData } from '../onboarding-events.js';
import { appKeyOf } from '../onboarding-keys.js';
import {
  AUTHORIZATION_CODE_TTL_MS,
  assertOpen,
  FINISHED,
  requireSession,
  type SessionRow,
  sessionOwnerOf,
  type Variant,
} from '../onboarding-session.js';
import { randomSecret, sha256Hex, verifierContext } from '../pkce.js';

/**
 * Step one of the callback, committed on its own: the state is checked against the session's and
 * spent, so a replayed state fails even when the code exchange that follows fails.
 */
async function claim(
  variant: Variant,
  input: OnboardingCallbackInput,
  ctx: OperationContext,
): Promise<OnboardingClaim> {
  const now = ctx.clock.now();
  const row = await requireSession(ctx.tx, sessionOwnerOf(ctx.caller), variant, input.session_id, { forUpdate: true });
  assertOpen(row, now);
  if (
    !row.state_hash ||
    row.state_used_at ||
    FINISHED.includes(row.status) ||
    row.state_hash !== sha256Hex(input.state) ||
    !row.provider ||
    !row.code_verifier_sealed
  ) {
    throw new AppError(
      'ONBOARDING_STATE_INVALID',
      'This state was not issued for this session, or it was already used: ask for a new authorization URL.',
    );
  }
  await ctx
    .tx('onboarding_sessions')
    .where({ id: row.id })
    .update({ state_used_at: now, status: 'superpdp_authorized', updated_at: now });
  return {
    session_id: row.id,
    provider: row.provider,
    code_verifier: open(appKeyOf(ctx.deps), row.code_verifier_sealed, verifierContext(row.id)),
  };
}

export const claimPartnerOnboardingState = defineCommand<OnboardingCallbackInput, OnboardingClaim>({
  name: 'claim_onboarding_state',
  summary: 'Internal: check and spend the state of a partner onboarding callback.',
  input: 'OnboardingCallbackInput',
  output: 'OnboardingClaim',
  callers: ['publishable'],
  run: (input, ctx) => claim('partner', input, ctx),
});

export const claimTenantOnboardingState = defineCommand<OnboardingCallbackInput, OnboardingClaim>({
  name: 'claim_tenant_onboarding_state',
  summary: 'Internal: check and spend the state of a sub-tenant onboarding callback.',
  input: 'OnboardingCallbackInput',
  output: 'OnboardingClaim',
  callers: ['publishable'],
  run: (input, ctx) => claim('tenant', input, ctx),
});

type Completion = TenantOnboardingCallbackResult;

/**
 * Step three, one transaction: the tenant (partner) or sub-tenant (tenant) with its provider
 * connection (tokens sealed), the session's outcome, the single-use authorization code (its hash),
 * and `onboarding.completed` to the session's owner, or the review job while the provider still
 * verifies the company.
 */
async function complete(variant: Variant, input: CompleteOnboardingInput, ctx: OperationContext): Promise<Completion> {
  const now = ctx.clock.now();
  const owner = sessionOwnerOf(ctx.caller);
  const row = await requireSession(ctx.tx, owner, variant, input.session_id, { forUpdate: true });
  if (row.created_tenant_id || row.sub_tenant_id || !row.provider) {
    throw new AppError('ONBOARDING_STATE_INVALID', 'This onboarding session already created its account.');
  }
  const { company } = input;
  if (company.verification === 'failed') {
    throw new AppError('ONBOARDING_REFUSED', 'The provider refused to verify this company.');
  }
  const active = company.verification === 'verified';
  const name = company.name ?? row.external_id ?? 'Company under review';
  const provider = ctx.deps.onboardingProviders.ofKind(row.provider);
  const connectionId = randomUUID();
  const connection = {
    id: connectionId,
    environment: row.environment,
    provider: row.provider,
    status: active ? 'active' : 'pending_review',
    client_id: provider.client?.id ?? null,
    ...sealedConnectionTokens(appKeyOf(ctx.deps), connectionId, {
      clientSecret: provider.client?.secret ?? null,
      accessToken: input.access_token,
      refreshToken: input.refresh_token,
      expiresAt: new Date(now.getTime() + input.expires_in * 1000),
    }),
    created_at: now,
    updated_at: now,
  };

  let createdTenantId: string | null = null;
  let subTenantId: string | null = null;
  if (variant === 'partner') {
    const tenant = await insertTenantAndEnter(ctx.tx, {
      kind: 'platform',
      name,
      email: company.email,
      siret: company.siret,
      parentTenantId: owner.tenantId,
      kybStatus: 'pending',
      now,
    }).catch((err: unknown) => {
      if (isUniqueViolation(err, 'tenants_email_unique')) {
        throw new AppError('CONFLICT', `The e-mail ${company.email} already has an account. Sign in instead.`);
      }
      throw err;
    });
    createdTenantId = tenant.id;
    await ctx.tx('provider_connections').insert({ ...connection, tenant_id: tenant.id, sub_tenant_id: null });
    await enterTenant(ctx.tx, owner.tenantId);
  } else {
    const externalId = row.external_id ?? `onboarding-${row.id}`;
    const subOwner = { ...owner, subTenantId: null };
    const sub = await guardExternalId(ctx.tx, subOwner, externalId, (sp) =>
      insertSubTenant(
        sp,
        subOwner,
        {
          external_id: externalId,
          name,
          email: company.email,
          siret: company.siret,
          metadata: row.metadata,
        },
        now,
      ),
    );
    subTenantId = sub.id;
    await ctx
      .tx('sub_tenants')
      .where({ id: sub.id })
      .update({ onboarding_status: active ? 'completed' : 'in_progress' });
    await ctx.tx('provider_connections').insert({ ...connection, tenant_id: owner.tenantId, sub_tenant_id: sub.id });
  }

  const code = `oac_${randomSecret()}`;
  const expiresAt = new Date(now.getTime() + AUTHORIZATION_CODE_TTL_MS);
  const [updated] = await ctx
    .tx('onboarding_sessions')
    .where({ id: row.id })
    .update({
      status: active ? 'active' : 'superpdp_pending_review',
      created_tenant_id: createdTenantId,
      sub_tenant_id: subTenantId,
      provider_connection_id: connectionId,
      authorization_code_hash: sha256Hex(code),
      authorization_code_expires_at: expiresAt,
      completed_at: active ? now : null,
      updated_at: now,
    })
    .returning<SessionRow[]>('*');
  if (active) {
    await ctx.events.emit('onboarding.completed', onboardingCompletedData(updated, name));
  } else {
    await ctx.jobs.send('check-onboarding-review', { tenantId: owner.tenantId, sessionId: row.id });
  }
  ctx.log.info(
    { onboarding_session_id: row.id, tenant_id: createdTenantId, sub_tenant_id: subTenantId, active },
    'onboarding account created',
  );
  return {
    success: true,
    authorization_code: code,
    expires_at: expiresAt.toISOString(),
    status: active ? 'completed' : 'pending',
    tenant: {
      id: (createdTenantId ?? subTenantId) as string,
      name,
      siret: company.siret,
      environment: row.environment,
    },
  };
}

export const completePartnerOnboarding = defineCommand<CompleteOnboardingInput, Completion>({
  name: 'complete_onboarding',
  summary: 'Internal: create the tenant of a partner onboarding from the provider grant.',
  input: 'CompleteOnboardingInput',
  output: 'TenantOnboardingCallbackResult',
  callers: ['publishable'],
  run: (input, ctx) => complete('partner', input, ctx),
});

export const completeTenantOnboarding = defineCommand<CompleteOnboardingInput, Completion>({
  name: 'complete_tenant_onboarding',
  summary: 'Internal: create the sub-tenant of a tenant onboarding from the provider grant.',
  input: 'CompleteOnboardingInput',
  output: 'TenantOnboardingCallbackResult',
  callers: ['publishable'],
  run: (input, ctx) => complete('tenant', input, ctx),
});

/** The provider refused the company at once (`company_verification_status: failed`): the session fails. */
export const failOnboardingSession = defineCommand<OnboardingAuthorizeInput, OnboardingReviewOutcome>({
  name: 'fail_onboarding_session',
  summary: 'Internal: record that the provider refused the company of a session.',
  input: 'OnboardingAuthorizeInput',
  output: 'OnboardingReviewOutcome',
  callers: ['publishable'],
  async run(input, ctx) {
    const owner = sessionOwnerOf(ctx.caller);
    const now = ctx.clock.now();
    const [row] = await ctx
      .tx('onboarding_sessions')
      .where({ tenant_id: owner.tenantId, environment: owner.environment, id: input.session_id })
      .whereNull('created_tenant_id')
      .whereNull('sub_tenant_id')
      .update({
        status: 'superpdp_failed',
        failure_reason: 'The provider could not verify the company.',
        updated_at: now,
      })
      .returning<SessionRow[]>('*');
    if (!row) throw new AppError('NOT_FOUND', `No onboarding session ${input.session_id} waiting for its account.`);
    return { onboarding_status: row.status };
  },
});

/**
 * The callback, outside any transaction: (1) check and spend the state; (2) exchange the provider
 * code with the PKCE verifier and read the company, a third party's calls; (3) create the account
 * in one transaction. A refusal at (2) marks nothing created: a new authorization starts over.
 */
async function callback(variant: Variant, input: OnboardingCallbackInput, ctx: OperationContext): Promise<Completion> {
  const claimed = await execute(
    variant === 'partner' ? claimPartnerOnboardingState : claimTenantOnboardingState,
    input,
    ctx.caller,
    ctx.deps,
  );
  const provider = ctx.deps.onboardingProviders.ofKind(claimed.provider);
  const grant = await provider.exchangeCode(input.code, claimed.code_verifier);
  const company = await provider.company(grant.accessToken);
  if (company.verification === 'failed') {
    await execute(failOnboardingSession, { session_id: input.session_id }, ctx.caller, ctx.deps);
    throw new AppError(
      'ONBOARDING_REFUSED',
      'The provider could not verify this company: the onboarding cannot finish.',
    );
  }
  return execute(
    variant === 'partner' ? completePartnerOnboarding : completeTenantOnboarding,
    {
      session_id: input.session_id,
      access_token: grant.accessToken,
      refresh_token: grant.refreshToken,
      expires_in: grant.expiresIn,
      company,
    },
    ctx.caller,
    ctx.deps,
  );
}

export const finishOnboarding = defineCommand<OnboardingCallbackInput, OnboardingCallbackResult>({
  name: 'finish_onboarding',
  summary:
    'Finish a partner onboarding with what the callback page posted (`code`, `state`): the state is checked (single use), the provider code exchanged, the tenant created with its provider connection, and `onboarding.completed` sent to your webhook. Returns a single-use authorization code valid 5 minutes.',
  input: 'OnboardingCallbackInput',
  output: 'OnboardingCallbackResult',
  callers: ['publishable'],
  transactional: false,
  async run(input, ctx) {
    const { success, ...data } = await callback('partner', input, ctx);
    return { success, data };
  },
});

export const finishTenantOnboarding = defineCommand<OnboardingCallbackInput, TenantOnboardingCallbackResult>({
  name: 'finish_tenant_onboarding',
  summary:
    'Finish a sub-tenant onboarding with what the callback page posted (`code`, `state`): the sub-tenant is created with its provider connection; returns a single-use authorization code valid 5 minutes.',
  input: 'OnboardingCallbackInput',
  output: 'TenantOnboardingCallbackResult',
  callers: ['publishable'],
  transactional: false,
  run: (input, ctx) => callback('tenant', input, ctx),
});
