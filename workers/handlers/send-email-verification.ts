import { emailVerificationMail } from '../../domain/mail/index.js';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import { publicBaseUrlOf } from '../../domain/users/index.js';
import { prepareEmailVerification } from '../../domain/users/operations/index.js';
import type { JobHandler } from '../job-handler.js';

/**
 * Makes the verification token, then mails the link outside any transaction. The job's output is
 * stored by pg-boss, so it never carries the token.
 */
export const sendEmailVerification: JobHandler<'send-email-verification'> = async ({ tenantId, userId }, deps) => {
  const prepared = await execute(prepareEmailVerification, { user_id: userId }, systemCaller(tenantId), deps);
  if (!prepared.token || !prepared.email || !prepared.expires_at) return { user_id: userId, sent: false };
  await deps.mailer.send(
    emailVerificationMail({
      to: prepared.email,
      firstName: prepared.first_name,
      baseUrl: publicBaseUrlOf(deps.config),
      token: prepared.token,
      expiresAt: prepared.expires_at,
    }),
  );
  return { user_id: userId, sent: true };
};
