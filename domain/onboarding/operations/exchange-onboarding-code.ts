import type {
  ExchangeOnboardingCodeInput,
  ExchangeTenantOnboardingCodeInput,
  OnboardingCredentials,
  OnboardingRedemption,
  RedeemOnboardingCodeInput,
  SubTenantOnboardingCredentials,
} from '../../../schemas/onboarding.js';
import { resolveApiKey } from '../../auth/index.js';
import { AppError } from '../../shared/app-error.js';
import type { Environment } from '../../shared/caller.js';
import { execute } from '../../shared/execute.js';
import { defineCommand, type OperationContext } from '../../shared/operation.js';
import { enterTenant } from '../../shared/tenant-context.js';
import { insertApiKey, revokeActiveKey, TENANT_KEY_SCOPES } from '../../tenants/index.js';
import { requireSession, type SessionRow, sessionOwnerOf } from '../onboarding-session.js';
import { sha256Hex } from '../pkce.js';

/** What a key bound to a new sub-tenant may do: its own invoicing, signatures and ledger. */
const SUB_TENANT_KEY_SCOPES = ['invoices', 'signatures', 'fiscal:read', 'fiscal:write'] as const;

/**
 * Spends a session's authorization code and issues the key, or says why not. A code seen again
 * after it was spent revokes the key it gave (RFC 6749 §4.1.2: a replay may mean it leaked), and
 * that revocation is committed: the refusal is answered by the caller, after this transaction.
 */
async function redeem(
  row: SessionRow | undefined,
  code: string,
  ctx: OperationContext,
  partnerTenantId: string,
): Promise<OnboardingRedemption> {
  const now = ctx.clock.now();
  if (!row?.authorization_code_hash || row.authorization_code_hash !== sha256Hex(code)) return { outcome: 'invalid' };
  const ownerOfKey = row.created_tenant_id ?? row.tenant_id;
  if (row.authorization_code_used_at) {
    if (row.issued_key_id) {
      await enterTenant(ctx.tx, ownerOfKey);
      await revokeActiveKey(ctx.tx, ownerOfKey, row.issued_key_id, 'onboarding authorization code replayed', now);
      ctx.log.warn(
        { onboarding_session_id: row.id, api_key_id: row.issued_key_id },
        'authorization code replayed: key revoked',
      );
    }
    return { outcome: 'replayed' };
  }
  if (!row.authorization_code_expires_at || row.authorization_code_expires_at.getTime() <= now.getTime()) {
    return { outcome: 'expired' };
  }
  await ctx
    .tx('onboarding_sessions')
    .where({ id: row.id })
    .update({ authorization_code_used_at: now, updated_at: now });
  await enterTenant(ctx.tx, ownerOfKey);
  // The new tenant's own key (every tenant scope), or a key of the tenant bound to the new sub-tenant.
  const issued = await insertApiKey(ctx.tx, ownerOfKey, {
    name: 'Onboarding key',
    kind: 'secret',
    environment: row.environment,
    scopes: row.created_tenant_id ? TENANT_KEY_SCOPES : SUB_TENANT_KEY_SCOPES,
    subTenantId: row.sub_tenant_id,
  });
  await enterTenant(ctx.tx, partnerTenantId);
  await ctx.tx('onboarding_sessions').where({ id: row.id }).update({ issued_key_id: issued.id });
  return {
    outcome: 'issued',
    owner_id: (row.created_tenant_id ?? row.sub_tenant_id) as string,
    api_key: issued.key,
    environment: row.environment,
  };
}

export const redeemOnboardingCode = defineCommand<RedeemOnboardingCodeInput, OnboardingRedemption>({
  name: 'redeem_onboarding_code',
  summary: "Internal: spend a partner onboarding's authorization code (or revoke what a replayed one gave).",
  input: 'RedeemOnboardingCodeInput',
  output: 'OnboardingRedemption',
  callers: ['anonymous'],
  async run(input, ctx) {
    const partner = await resolveApiKey(ctx.tx, 'publishable', input.publishable_key ?? '', {
      ip: ctx.caller.ip ?? null,
      now: ctx.clock.now(),
    });
    const tenantId = partner.tenantId as string;
    await enterTenant(ctx.tx, tenantId);
    const row = await ctx
      .tx('onboarding_sessions')
      .where({
        tenant_id: tenantId,
        environment: partner.environment as Environment,
        variant: 'partner',
        authorization_code_hash: sha256Hex(input.authorization_code),
      })
      .forUpdate()
      .first<SessionRow | undefined>();
    return redeem(row, input.authorization_code, ctx, tenantId);
  },
});

export const redeemTenantOnboardingCode = defineCommand<RedeemOnboardingCodeInput, OnboardingRedemption>({
  name: 'redeem_tenant_onboarding_code',
  summary: "Internal: spend a sub-tenant onboarding's authorization code (or revoke what a replayed one gave).",
  input: 'RedeemOnboardingCodeInput',
  output: 'OnboardingRedemption',
  callers: ['publishable'],
  async run(input, ctx) {
    const owner = sessionOwnerOf(ctx.caller);
    const row = await requireSession(ctx.tx, owner, 'tenant', input.session_id ?? '', { forUpdate: true });
    return redeem(row, input.authorization_code, ctx, owner.tenantId);
  },
});

/** The refusals, answered once the redemption's transaction (and a replay's revocation) committed. */
function issuedOrThrow(result: OnboardingRedemption): { owner_id: string; api_key: string; environment: Environment } {
  switch (result.outcome) {
    case 'issued':
      return result as { owner_id: string; api_key: string; environment: Environment };
    case 'expired':
      throw new AppError(
        'AUTHORIZATION_CODE_EXPIRED',
        'This authorization code has expired: run the onboarding again.',
      );
    case 'replayed':
      throw new AppError(
        'AUTHORIZATION_CODE_INVALID',
        'This authorization code was already used: the key it gave is now revoked. Run the onboarding again.',
      );
    default:
      throw new AppError('AUTHORIZATION_CODE_INVALID', 'Unknown authorization code.');
  }
}

export const exchangeOnboardingCode = defineCommand<ExchangeOnboardingCodeInput, OnboardingCredentials>({
  name: 'exchange_onboarding_code',
  summary:
    "From your backend: exchange a partner onboarding's authorization code (single use, 5 minutes) for the new tenant's secret key. 401 unknown or used code (a replay revokes the key the first exchange gave), 410 expired, 429 beyond 5 per minute.",
  input: 'ExchangeOnboardingCodeInput',
  output: 'OnboardingCredentials',
  callers: ['anonymous'],
  transactional: false,
  async run(input, ctx) {
    const issued = issuedOrThrow(await execute(redeemOnboardingCode, input, ctx.caller, ctx.deps));
    return { tenant_id: issued.owner_id, api_key: issued.api_key, environment: issued.environment };
  },
});

export const exchangeTenantOnboardingCode = defineCommand<
  ExchangeTenantOnboardingCodeInput,
  SubTenantOnboardingCredentials
>({
  name: 'exchange_tenant_onboarding_code',
  summary:
    "Exchange a sub-tenant onboarding's authorization code (single use, 5 minutes) for a secret key bound to the new sub-tenant. 401 unknown or used code (a replay revokes the first key), 410 expired, 429 beyond 5 per minute.",
  input: 'ExchangeTenantOnboardingCodeInput',
  output: 'SubTenantOnboardingCredentials',
  callers: ['publishable'],
  transactional: false,
  async run(input, ctx) {
    const issued = issuedOrThrow(await execute(redeemTenantOnboardingCode, input, ctx.caller, ctx.deps));
    return { sub_tenant_id: issued.owner_id, api_key: issued.api_key, environment: issued.environment };
  },
});
