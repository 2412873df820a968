import type { AuthMessage, ResetPasswordInput } from '../../../schemas/auth.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { enterTenant } from '../../shared/tenant-context.js';
import { lockEmailVerifiedAt, revokeRegistrantAccess } from '../account-claim.js';
import { hashPassword } from '../password.js';
import { passwordProblems } from '../password-policy.js';
import { consumePasswordReset, expireOpenResets, findPasswordReset } from '../password-reset-store.js';

/** Unknown, used, expired, or for another e-mail: one message, so a token reveals nothing. */
export const INVALID_RESET_TOKEN = 'This password reset token is invalid or has expired. Ask for a new link.';

export const resetPassword = defineCommand<ResetPasswordInput, AuthMessage>({
  name: 'reset_password',
  summary:
    'Set a new password with the token from the reset e-mail, which also confirms the e-mail; every token and session of the account is revoked (and its API keys, if the e-mail was not confirmed before).',
  input: 'ResetPasswordInput',
  output: 'AuthMessage',
  callers: ['anonymous'],
  async run(input, ctx) {
    const errors: Record<string, string[]> = {};
    const weak = passwordProblems(input.password, input.email);
    if (weak.length) errors.password = weak;
    if (input.password !== input.password_confirmation) errors.password_confirmation = ['does not match password'];
    if (Object.keys(errors).length) throw AppError.validation(errors);

    const now = ctx.clock.now();
    const invalid = () => AppError.validation({ token: [INVALID_RESET_TOKEN] }, INVALID_RESET_TOKEN);
    const reset = await findPasswordReset(ctx.tx, input.token);
    if (!reset || reset.used_at || reset.expires_at.getTime() <= now.getTime()) throw invalid();
    await enterTenant(ctx.tx, reset.tenant_id);
    const user = await ctx
      .tx('users')
      .where({ tenant_id: reset.tenant_id, id: reset.user_id })
      .first<{ email: string; is_active: boolean } | undefined>(['email', 'is_active']);
    if (!user?.is_active || user.email.toLowerCase() !== input.email.trim().toLowerCase()) throw invalid();
    if (!(await consumePasswordReset(ctx.tx, reset.tenant_id, reset.id, now))) throw invalid();

    const account = { id: reset.user_id, tenant_id: reset.tenant_id };
    const verifiedAt = await lockEmailVerifiedAt(ctx.tx, account);
    await ctx
      .tx('users')
      .where({ tenant_id: reset.tenant_id, id: reset.user_id })
      .update({
        password_hash: await hashPassword(input.password),
        // The reset link reached the mailbox: the address is proven.
        email_verified_at: verifiedAt ?? now,
        updated_at: now,
      });
    await expireOpenResets(ctx.tx, reset.tenant_id, reset.user_id, now);
    if (verifiedAt) {
      // Whoever knew the old password is signed out everywhere.
      await ctx
        .tx('access_tokens')
        .where({ tenant_id: reset.tenant_id, user_id: reset.user_id })
        .whereNull('revoked_at')
        .update({ revoked_at: now });
    } else {
      // The address's owner takes over an account someone else may have opened: their keys go too.
      await revokeRegistrantAccess(ctx, account);
    }
    return { message: 'Your password has been reset. Sign in with the new password.' };
  },
});
