import type { OperationContext } from '../shared/operation.js';
import { enterTenant } from '../shared/tenant-context.js';
import type { ExternalIdentity } from './identity-provider.js';
import { expireOpenResets } from './password-reset-store.js';

const CLAIMED = 'The owner of the e-mail address signed in with Google; this account had never proven it.';

/**
 * Links a Google account to the user with its e-mail: Google proves the address. A user whose
 * e-mail was verified is linked as is. A user whose e-mail was never proven may have been
 * registered by someone else before its owner came (account pre-hijacking): the owner takes it
 * over, and whatever the registrant set up to keep access goes. Its password is dropped, and every
 * bearer token, cookie session, API key and reset link of the user is revoked; the workspace's
 * webhook endpoints, which could carry its events to the registrant, are disabled.
 */
export async function linkGoogleAccount(
  ctx: OperationContext,
  user: { id: string; tenant_id: string },
  identity: ExternalIdentity,
): Promise<void> {
  const now = ctx.clock.now();
  const { tx } = ctx;
  await enterTenant(tx, user.tenant_id);
  const where = { tenant_id: user.tenant_id, id: user.id };
  const row = await tx('users').where(where).forUpdate().first<{ email_verified_at: Date | null }>('email_verified_at');
  const verified = Boolean(row?.email_verified_at);
  await tx('users')
    .where(where)
    .update({
      google_id: identity.subject,
      avatar_url: tx.raw('coalesce(avatar_url, ?)', [identity.avatarUrl]),
      email_verified_at: row?.email_verified_at ?? now,
      ...(verified ? {} : { password_hash: null }),
      updated_at: now,
    });
  if (verified) return;

  const owned = { tenant_id: user.tenant_id, user_id: user.id };
  await tx('access_tokens').where(owned).whereNull('revoked_at').update({ revoked_at: now });
  await tx('api_keys')
    .where(owned)
    .where({ status: 'active' })
    .update({ status: 'revoked', revoked_at: now, revoked_reason: CLAIMED });
  await expireOpenResets(tx, user.tenant_id, user.id, now);
  await tx('webhook_endpoints')
    .where({ tenant_id: user.tenant_id, is_active: true })
    .whereNull('deleted_at')
    .update({ is_active: false, disabled_at: now, disabled_reason: CLAIMED, updated_at: now });
  ctx.log.warn(
    { user_id: user.id },
    'unverified account claimed by Google sign-in: password dropped, credentials revoked',
  );
}
