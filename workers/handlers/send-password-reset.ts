import { passwordResetMail } from '../../domain/mail/index.js';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import { publicBaseUrlOf } from '../../domain/users/index.js';
import { createPasswordReset } from '../../domain/users/operations/index.js';
import type { JobHandler } from '../job-handler.js';

/**
 * Makes the reset token (committed first), then mails the link outside the transaction. A retry
 * after a mail failure makes a fresh token, which invalidates the one never delivered. The job's
 * output is stored by pg-boss, so it never carries the token.
 */
export const sendPasswordReset: JobHandler<'send-password-reset'> = async ({ tenantId, userId }, deps) => {
  const reset = await execute(createPasswordReset, { user_id: userId }, systemCaller(tenantId), deps);
  if (!reset.token || !reset.email || !reset.expires_at) return { user_id: userId, sent: false };
  await deps.mailer.send(
    passwordResetMail({
      to: reset.email,
      firstName: reset.first_name,
      baseUrl: publicBaseUrlOf(deps.config),
      token: reset.token,
      expiresAt: reset.expires_at,
    }),
  );
  return { user_id: userId, sent: true };
};
