import type { AuthMessage, ForgotPasswordInput } from '../../../schemas/auth.js';
import { defineCommand } from '../../shared/operation.js';
import { findUserByEmail } from '../sign-in.js';

/** The same answer whether or not the account exists: the route never reveals who has one. */
export const RESET_REQUESTED = 'If an account exists for this e-mail, a link to reset its password is on its way.';

/** One reset mail per user per minute at most, however often the form is sent (pg-boss throttling). */
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
      await ctx.jobs.send(
        'send-password-reset',
        { tenantId: user.tenant_id, userId: user.id },
        { singletonKey: user.id, singletonSeconds: RESET_MAIL_INTERVAL_SECONDS },
      );
    }
    return { message: RESET_REQUESTED };
  },
});
