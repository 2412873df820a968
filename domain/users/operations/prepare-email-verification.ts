import type { EmailVerificationPrepared, PrepareEmailVerificationInput } from '../../../schemas/auth.js';
import { defineCommand } from '../../shared/operation.js';
import { issueEmailVerificationToken } from '../email-verification.js';

const NONE: EmailVerificationPrepared = { token: null, email: null, first_name: null, expires_at: null };

/** Worker step of registration and of a resend: the token to mail, made where it is sent. */
export const prepareEmailVerification = defineCommand<PrepareEmailVerificationInput, EmailVerificationPrepared>({
  name: 'prepare_email_verification',
  summary: "Make the verification token of a user's e-mail (none once it is verified); the worker mails it.",
  input: 'PrepareEmailVerificationInput',
  output: 'EmailVerificationPrepared',
  callers: ['system'],
  async run(input, ctx) {
    const tenantId = ctx.caller.tenantId!;
    const user = await ctx
      .tx('users')
      .where({ tenant_id: tenantId, id: input.user_id })
      .first<{ email: string; first_name: string; is_active: boolean; email_verified_at: Date | null } | undefined>([
        'email',
        'first_name',
        'is_active',
        'email_verified_at',
      ]);
    // Disabled, or verified (by Google, a reset) since the job was queued: no mail.
    if (!user?.is_active || user.email_verified_at) return NONE;
    const { token, expiresAt } = issueEmailVerificationToken(ctx.deps.config.appKey, ctx.clock.now(), {
      id: input.user_id,
      tenantId,
      email: user.email,
    });
    return { token, email: user.email, first_name: user.first_name, expires_at: expiresAt.toISOString() };
  },
});
