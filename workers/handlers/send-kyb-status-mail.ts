import { kybStatusMail } from '../../domain/mail/index.js';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import { getKybMailNotice } from '../../domain/tenants/operations/index.js';
import type { JobHandler } from '../job-handler.js';

/**
 * Mails a tenant where its KYB went, outside any transaction (a mail failure retries the job). The
 * job carries the status and reason of its change: a mail sent late still tells that change.
 */
export const sendKybStatusMail: JobHandler<'send-kyb-status-mail'> = async (
  { tenantId, status, rejectionReason },
  deps,
) => {
  const notice = await execute(getKybMailNotice, {}, systemCaller(tenantId), deps);
  if (!notice.to) return { tenant_id: tenantId, status, sent: false };
  await deps.mailer.send(kybStatusMail({ to: notice.to, name: notice.name, status, rejectionReason }));
  return { tenant_id: tenantId, status, sent: true };
};
