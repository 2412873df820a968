import { webhookDisabledMail } from '../../domain/mail/index.js';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import { getWebhookDisabledNotice } from '../../domain/webhooks/operations/index.js';
import type { JobHandler } from '../job-handler.js';

/** Mails the owner of a disabled endpoint, outside any transaction (a mail failure retries the job). */
export const notifyWebhookDisabled: JobHandler<'notify-webhook-disabled'> = async ({ tenantId, endpointId }, deps) => {
  const notice = await execute(getWebhookDisabledNotice, { endpoint_id: endpointId }, systemCaller(tenantId), deps);
  if (!notice.to) return { endpoint_id: endpointId, sent: false };
  await deps.mailer.send(
    webhookDisabledMail({
      to: notice.to,
      url: notice.url,
      reason: notice.reason,
      disabledAt: notice.disabled_at,
      endpointId: notice.endpoint_id,
    }),
  );
  return { endpoint_id: endpointId, sent: true };
};
