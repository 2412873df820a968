import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import { smsSenderFor } from '../../domain/signatures/index.js';
import { issueSigningCode } from '../../domain/signatures/operations/index.js';
import type { JobHandler } from '../job-handler.js';

/**
 * Makes the signer's code (committed first), then sends it outside the transaction, by e-mail and/or
 * SMS. A retry after a failed send makes a fresh code, which replaces the one never delivered. The
 * job's output is stored by pg-boss, so it never carries the code.
 */
export const sendSigningCode: JobHandler<'send-signing-code'> = async ({ tenantId, signerId }, deps) => {
  const message = await execute(issueSigningCode, { signer_id: signerId }, systemCaller(tenantId), deps);
  if (!message.sent) return { signer_id: signerId, sent: [] };
  if (message.channels.includes('email') && message.email) {
    await deps.mailer.send({ to: message.email, subject: message.subject, text: message.text });
  }
  if (message.channels.includes('sms') && message.phone) {
    await smsSenderFor(deps.config).send({ to: message.phone, text: message.text }, deps.clock.now());
  }
  return { signer_id: signerId, sent: message.channels };
};
