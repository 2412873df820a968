import { kybStatusMail } from '../../domain/mail/index.js';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import { getKybMailNotice } from '../../domain/tenants/operations/index.js';
import type { JobHandler } from '../job-handler.js';

/** Mails a tenant where its KYB now stands, outside any transaction (a mail failure retries the job). */
export const sendKybStatusMail: JobHandler<'send-kyb-status-mail'> = async ({ tenantId, status }, deps) => {
  const notice = await execute(getKybMailNotice, { status }, systemCaller(tenantId), deps);
  if (!notice.to) return { tenant_id: tenantId, status, sent: false };
  await deps.mailer.send(
    kybStatusMail({ to: notice.to, name: notice.name, status, rejectionReason: notice.rejection_reason }),
  );
  return { tenant_id: tenantId, status, sent: true };
};
