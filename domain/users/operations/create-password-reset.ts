import type { CreatePasswordResetInput, PasswordResetCreated } from '../../../schemas/auth.js';
import { defineCommand } from '../../shared/operation.js';
import { createPasswordResetToken } from '../password-reset-store.js';

const NONE: PasswordResetCreated = { token: null, email: null, first_name: null, expires_at: null };

/** Worker step of `request_password_reset`: the token to mail, made where it is sent. */
export const createPasswordReset = defineCommand<CreatePasswordResetInput, PasswordResetCreated>({
  name: 'create_password_reset',
  summary: 'Make a password reset token for a user (earlier unused ones stop working); the worker mails it.',
  input: 'CreatePasswordResetInput',
  output: 'PasswordResetCreated',
  callers: ['system'],
  async run(input, ctx) {
    const tenantId = ctx.caller.tenantId!;
    const user = await ctx
      .tx('users')
      .where({ tenant_id: tenantId, id: input.user_id })
      .first<{ email: string; first_name: string; is_active: boolean } | undefined>([
        'email',
        'first_name',
        'is_active',
      ]);
    // Disabled between the request and this job: no mail.
    if (!user?.is_active) return NONE;
    const { token, expiresAt } = await createPasswordResetToken(ctx.tx, tenantId, input.user_id, ctx.clock.now());
    return { token, email: user.email, first_name: user.first_name, expires_at: expiresAt.toISOString() };
  },
});
