import { getIncomingStatusToSend, recordIncomingStatusSend } from '../../domain/incoming/operations/index.js';
import { AppError, isAppError } from '../../domain/shared/app-error.js';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import type { JobHandler } from '../job-handler.js';

/**
 * Sends a decision on an incoming invoice to the provider as its lifecycle status (`fr:205`,
 * `fr:210` with the reason, `fr:207`, `fr:211` with the payment reference), outside any transaction, then records it. A status
 * already sent is skipped, so a retry after success sends nothing twice; a failure is recorded and
 * thrown, and pg-boss retries (domain/shared/queues.ts).
 */
export const sendIncomingStatus: JobHandler<'send-incoming-status'> = async ({ tenantId, eventId }, deps) => {
  const caller = systemCaller(tenantId);
  const status = await execute(getIncomingStatusToSend, { event_id: eventId }, caller, deps);
  if (status.sent) return { skipped: true };
  try {
    const event = await deps.einvoicingProvider.sendStatus(
      { id: status.account_id, tenantId, environment: status.environment },
      {
        invoiceId: status.pdp_id,
        statusCode: status.status_code,
        ...(status.reason_code ? { reason: { code: status.reason_code, text: status.reason ?? undefined } } : {}),
        ...(status.payment_reference ? { paymentReference: status.payment_reference } : {}),
      },
    );
    await execute(recordIncomingStatusSend, { event_id: eventId, provider_event_id: event.id }, caller, deps);
    return { sent: status.status_code };
  } catch (err) {
    const message = (err as Error).message.slice(0, 1000);
    await execute(recordIncomingStatusSend, { event_id: eventId, error: message }, caller, deps);
    throw isAppError(err) ? err : new AppError('PROVIDER_UNAVAILABLE', message, { retryable: true, cause: err });
  }
};
