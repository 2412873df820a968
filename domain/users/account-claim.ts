import type { Knex } from 'knex';
import type { OperationContext } from '../shared/operation.js';
import { enterTenant } from '../shared/tenant-context.js';
import type { ExternalIdentity } from './identity-provider.js';
import { expireOpenResets } from './password-reset-store.js';

const CLAIMED = 'The owner of the e-mail address proved it; this account had never done so.';

/**
 * The owner of an address proved it (Google sign-in, a reset link) on an account that never had:
 * the account may have been opened by someone else before its owner came (account pre-hijacking).
 * Whatever that registrant set up to keep access goes: every bearer token, cookie session, API key
 * and reset link of the user is revoked, and the workspace's webhook endpoints, which could carry
 * its events away, are disabled. The caller drops or replaces the password.
 */
export async function revokeRegistrantAccess(
  ctx: OperationContext,
  user: { id: string; tenant_id: string },
): Promise<void> {
  const { tx } = ctx;
  const now = ctx.clock.now();
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
    'unverified account claimed by the owner of its e-mail: its credentials are revoked',
  );
}

/** When the user's e-mail was verified, under a row lock (two claims at once see each other). */
export async function lockEmailVerifiedAt(tx: Knex, user: { id: string; tenant_id: string }): Promise<Date | null> {
  const row = await tx('users')
    .where({ tenant_id: user.tenant_id, id: user.id })
    .forUpdate()
    .first<{ email_verified_at: Date | null } | undefined>('email_verified_at');
  return row?.email_verified_at ?? null;
}

/**
 * Links a Google account to the user with its e-mail: Google proves the address. A verified user
 * is linked as is. An unverified one is taken over by the address's owner: its password is
 * dropped and the registrant's access revoked.
 */
export async function linkGoogleAccount(
  ctx: OperationContext,
  user: { id: string; tenant_id: string },
  identity: ExternalIdentity,
): Promise<void> {
  const now = ctx.clock.now();
  const { tx } = ctx;
  await enterTenant(tx, user.tenant_id);
  const verifiedAt = await lockEmailVerifiedAt(tx, user);
  await tx('users')
    .where({ tenant_id: user.tenant_id, id: user.id })
    .update({
      google_id: identity.subject,
      avatar_url: tx.raw('coalesce(avatar_url, ?)', [identity.avatarUrl]),
      email_verified_at: verifiedAt ?? now,
      ...(verifiedAt ? {} : { password_hash: null }),
      updated_at: now,
    });
  if (!verifiedAt) await revokeRegistrantAccess(ctx, user);
}
