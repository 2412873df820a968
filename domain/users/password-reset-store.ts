import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { randomAlphanumeric } from '../shared/random.js';

/** A reset link works for 60 minutes, once. */
export const PASSWORD_RESET_LIFETIME_MS = 60 * 60 * 1000;

export const hashResetToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** What `auth_find_password_reset` returns. */
export interface PasswordResetRow {
  id: string;
  tenant_id: string;
  user_id: string;
  expires_at: Date;
  used_at: Date | null;
}

/**
 * A new token for the user: earlier unused ones stop working (only the latest mail's link is
 * valid), and only the SHA-256 is stored. Returns the token itself, to mail.
 */
export async function createPasswordResetToken(
  tx: Knex,
  tenantId: string,
  userId: string,
  now: Date,
): Promise<{ token: string; expiresAt: Date }> {
  await expireOpenResets(tx, tenantId, userId, now);
  const token = randomAlphanumeric(64);
  const expiresAt = new Date(now.getTime() + PASSWORD_RESET_LIFETIME_MS);
  await tx('password_resets').insert({
    tenant_id: tenantId,
    user_id: userId,
    token_hash: hashResetToken(token),
    expires_at: expiresAt,
    created_at: now,
  });
  return { token, expiresAt };
}

/** The cross-tenant lookup by hash (the tenant is not known before the token is). */
export async function findPasswordReset(tx: Knex, token: string): Promise<PasswordResetRow | undefined> {
  const { rows } = await tx.raw<{ rows: PasswordResetRow[] }>('select * from auth_find_password_reset(?)', [
    hashResetToken(token),
  ]);
  return rows[0];
}

/** Marks the token used; false when another request used it first (single use under concurrency). */
export async function consumePasswordReset(tx: Knex, tenantId: string, id: string, now: Date): Promise<boolean> {
  const used = await tx('password_resets')
    .where({ tenant_id: tenantId, id })
    .whereNull('used_at')
    .update({ used_at: now })
    .returning('id');
  return used.length === 1;
}

export async function expireOpenResets(tx: Knex, tenantId: string, userId: string, now: Date): Promise<void> {
  await tx('password_resets')
    .where({ tenant_id: tenantId, user_id: userId })
    .whereNull('used_at')
    .where('expires_at', '>', now)
    .update({ expires_at: now });
}
