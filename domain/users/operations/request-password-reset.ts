import type { AuthMessage, ForgotPasswordInput } from '../../../schemas/auth.js';
import { defineCommand } from '../../shared/operation.js';
import { enterTenant } from '../../shared/tenant-context.js';
import { claimMailSlot } from '../mail-throttle.js';
import { findUserByEmail } from '../sign-in.js';

/** The same answer whether or not the account exists: the route never reveals who has one. */
export const RESET_REQUESTED = 'If an account exists for this e-mail, a link to reset its password is on its way.';

/** One reset mail per user per minute at most, however often the form is sent (mail-throttle.ts). */
export const RESET_MAIL_INTERVAL_SECONDS = 60;

export const requestPasswordReset = defineCommand<ForgotPasswordInput, AuthMessage>({
  name: 'request_password_reset',
  summary:
    'Mail a password reset link (valid 60 minutes, single use) to the account with this e-mail, if there is one.',
  input: 'ForgotPasswordInput',
  output: 'AuthMessage',
  callers: ['anonymous'],
  async run(input, ctx) {
    const user = await findUserByEmail(ctx, input.email);
    if (user?.is_active) {
      // The token is made and mailed by the worker, so this answer takes the same time either way.
      await enterTenant(ctx.tx, user.tenant_id);
      const who = { tenantId: user.tenant_id, userId: user.id };
      if (await claimMailSlot(ctx.tx, who, 'reset_mail_queued_at', RESET_MAIL_INTERVAL_SECONDS, ctx.clock.now())) {
        await ctx.jobs.send('send-password-reset', who);
      }
    }
    return { message: RESET_REQUESTED };
  },
});
