import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import { prepareWebhookDelivery, recordWebhookAttempt } from '../../domain/webhooks/operations/index.js';
import type { JobHandler } from '../job-handler.js';

/**
 * One attempt of one delivery: prepared (and signed) in a read-only transaction, sent outside any
 * transaction, recorded with another `execute`, which also queues the next attempt. A worker killed
 * during the call leaves the attempt unrecorded: pg-boss works the job again once its heartbeat
 * stops, and the same attempt goes out again with the same X-Service-Delivery.
 */
export const deliverWebhook: JobHandler<'deliver-webhook'> = async ({ tenantId, deliveryId, attempt }, deps) => {
  const caller = systemCaller(tenantId);
  const prepared = await execute(prepareWebhookDelivery, { delivery_id: deliveryId, attempt }, caller, deps);
  if (!prepared.send || !prepared.request) return { delivery_id: deliveryId, attempt, skipped: prepared.reason };
  const attemptedAt = deps.clock.now();
  const outcome = await deps.webhookSender.send(prepared.request);
  const recorded = await execute(
    recordWebhookAttempt,
    {
      delivery_id: deliveryId,
      attempt,
      url: prepared.request.url,
      attempted_at: attemptedAt.toISOString(),
      ...outcome,
    },
    caller,
    deps,
  );
  return { delivery_id: deliveryId, attempt, success: outcome.success, status_code: outcome.status_code, ...recorded };
};
