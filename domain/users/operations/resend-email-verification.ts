import type { AuthMessage } from '../../../schemas/auth.js';
import type { EmptyInput } from '../../../schemas/common.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand, type OperationContext } from '../../shared/operation.js';
import { claimMailSlot } from '../mail-throttle.js';

/** One verification mail per user per minute at most, however often it is asked for (mail-throttle.ts). */
export const VERIFICATION_MAIL_INTERVAL_SECONDS = 60;

export const resendEmailVerification = defineCommand<EmptyInput, AuthMessage>({
  name: 'resend_email_verification',
  summary:
    "Mail a new verification link to the signed-in user's e-mail (at most one mail a minute); nothing to do once it is verified.",
  input: 'EmptyInput',
  output: 'AuthMessage',
  callers: ['user'],
  async run(_input, ctx) {
    const { tenantId, userId } = ctx.caller;
    const user = await ctx
      .tx('users')
      .where({ tenant_id: tenantId!, id: userId! })
      .first<{ email_verified_at: Date | null } | undefined>('email_verified_at');
    if (!user) throw new AppError('NOT_FOUND', 'No user for this credential.');
    if (user.email_verified_at) return { message: 'Your e-mail address is already confirmed.' };
    await queueVerificationMail(ctx, tenantId!, userId!);
    return { message: 'A new confirmation link is on its way to your e-mail address.' };
  },
});

/**
 * Queued in the caller's transaction (a rolled-back registration sends nothing), unless one was
 * queued less than a minute ago.
 */
export async function queueVerificationMail(ctx: OperationContext, tenantId: string, userId: string): Promise<void> {
  const who = { tenantId, userId };
  const now = ctx.clock.now();
  if (await claimMailSlot(ctx.tx, who, 'verification_mail_queued_at', VERIFICATION_MAIL_INTERVAL_SECONDS, now)) {
    await ctx.jobs.send('send-email-verification', who);
  }
}
