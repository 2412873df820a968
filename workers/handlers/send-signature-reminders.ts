import { signatureReminderMail } from '../../domain/mail/index.js';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import { getSignatureReminder } from '../../domain/signatures/operations/index.js';
import type { JobHandler } from '../job-handler.js';

/**
 * Mails each pending signer reached by e-mail (`email` or `both`) a reminder with their signing
 * link, outside any transaction (a mail failure retries the job). Signers reached by SMS only are
 * counted as skipped until the SMS port exists. A request no longer pending sends nothing.
 */
export const sendSignatureReminders: JobHandler<'send-signature-reminders'> = async (
  { tenantId, signatureId },
  deps,
) => {
  const reminder = await execute(getSignatureReminder, { id: signatureId }, systemCaller(tenantId), deps);
  if (reminder.status !== 'pending' || reminder.environment !== 'production') {
    return { signature_id: signatureId, mailed: 0, skipped: reminder.signers.length };
  }
  let mailed = 0;
  for (const signer of reminder.signers) {
    if (!signer.email || signer.auth_method === 'sms') continue;
    await deps.mailer.send(
      signatureReminderMail({
        to: signer.email,
        signerName: signer.full_name,
        title: reminder.title,
        signingUrl: signer.signing_url,
      }),
    );
    mailed += 1;
  }
  return { signature_id: signatureId, mailed, skipped: reminder.signers.length - mailed };
};
