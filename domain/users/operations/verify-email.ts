import type { AuthMessage, VerifyEmailInput } from '../../../schemas/auth.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { enterTenant } from '../../shared/tenant-context.js';
import { openEmailVerificationToken } from '../email-verification.js';

/** Forged, expired, already used, or for an address the account no longer has: one message. */
export const INVALID_VERIFICATION_TOKEN =
  'This verification link is invalid, has expired or was already used. Ask for a new one.';

export const verifyEmail = defineCommand<VerifyEmailInput, AuthMessage>({
  name: 'verify_email',
  summary:
    'Confirm the e-mail of a dashboard account with the token of the mailed link (valid 24 hours, once). Production API keys need a confirmed e-mail.',
  input: 'VerifyEmailInput',
  output: 'AuthMessage',
  callers: ['anonymous'],
  async run(input, ctx) {
    const invalid = () => AppError.validation({ token: [INVALID_VERIFICATION_TOKEN] }, INVALID_VERIFICATION_TOKEN);
    const now = ctx.clock.now();
    const claims = openEmailVerificationToken(ctx.deps.config.appKey, now, input.token);
    if (!claims) throw invalid();
    await enterTenant(ctx.tx, claims.tid);
    // Single use: the first request to set the date wins; a replay finds it set.
    const verified = await ctx
      .tx('users')
      .where({ tenant_id: claims.tid, id: claims.uid, is_active: true })
      .whereRaw('lower(email) = ?', [claims.email])
      .whereNull('email_verified_at')
      .update({ email_verified_at: now, updated_at: now })
      .returning('id');
    if (verified.length !== 1) throw invalid();
    return { message: 'Your e-mail address is confirmed.' };
  },
});
