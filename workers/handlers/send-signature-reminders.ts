import { signatureReminderMail } from '../../domain/mail/index.js';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import { smsSenderFor } from '../../domain/signatures/index.js';
import { getSignatureReminder } from '../../domain/signatures/operations/index.js';
import type { JobHandler } from '../job-handler.js';

/**
 * Reminds each pending signer with their signing link, outside any transaction (a failure retries
 * the job): by e-mail when the signer has one (`email`, `both`), by SMS when reached by phone only.
 * A signer whose link is not known yet (a request still being handed over) and a request no longer
 * pending get nothing.
 */
export const sendSignatureReminders: JobHandler<'send-signature-reminders'> = async (
  { tenantId, signatureId },
  deps,
) => {
  const reminder = await execute(getSignatureReminder, { id: signatureId }, systemCaller(tenantId), deps);
  if (reminder.status !== 'pending' || reminder.environment !== 'production') {
    return { signature_id: signatureId, mailed: 0, texted: 0, skipped: reminder.signers.length };
  }
  let mailed = 0;
  let texted = 0;
  for (const signer of reminder.signers) {
    if (!signer.signing_url) continue;
    if (signer.email && signer.auth_method !== 'sms') {
      await deps.mailer.send(
        signatureReminderMail({
          to: signer.email,
          signerName: signer.full_name,
          title: reminder.title,
          signingUrl: signer.signing_url,
        }),
      );
      mailed += 1;
    } else if (signer.phone) {
      const text = `Reminder: "${reminder.title}" is waiting for your signature: ${signer.signing_url}`;
      await smsSenderFor(deps.config).send({ to: signer.phone, text }, deps.clock.now());
      texted += 1;
    }
  }
  return { signature_id: signatureId, mailed, texted, skipped: reminder.signers.length - mailed - texted };
};
