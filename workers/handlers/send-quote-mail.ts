import { quoteMail } from '../../domain/quotes/index.js';
import { getQuoteMail } from '../../domain/quotes/operations/index.js';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import type { JobHandler } from '../job-handler.js';

/**
 * Mails a sent quote's link to its buyer, outside any transaction (a mail failure retries the job).
 * A sandbox quote, one without a buyer e-mail or a live link, or one answered meanwhile gets nothing.
 */
export const sendQuoteMail: JobHandler<'send-quote-mail'> = async ({ tenantId, quoteId }, deps) => {
  const mail = await execute(getQuoteMail, { quote_id: quoteId }, systemCaller(tenantId), deps);
  if (!mail.send || !mail.to || !mail.public_url) return { quote_id: quoteId, sent: false };
  await deps.mailer.send(quoteMail({ ...mail, to: mail.to, public_url: mail.public_url }));
  return { quote_id: quoteId, sent: true };
};
