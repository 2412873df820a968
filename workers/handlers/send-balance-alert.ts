import { getBillingContact } from '../../domain/billing/operations/index.js';
import { balanceAlertMail } from '../../domain/mail/index.js';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import type { JobHandler } from '../job-handler.js';

/** Mails a balance alert to the tenant's billing contact, outside any transaction (a mail failure retries the job). */
export const sendBalanceAlert: JobHandler<'send-balance-alert'> = async (payload, deps) => {
  const contact = await execute(getBillingContact, {}, systemCaller(payload.tenantId), deps);
  if (!contact.to) return { sent: false };
  await deps.mailer.send(balanceAlertMail({ ...payload, to: contact.to }));
  return { sent: true };
};
