import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import type { ProviderAccountRef } from '../../domain/transmission/index.js';
import { getInvoiceStatusTarget } from '../../domain/transmission/operations/index.js';
import type { JobHandler } from '../job-handler.js';

/**
 * Sends a lifecycle status about an invoice (`fr:212` when the seller records a payment). The event
 * the provider logs comes back through the event sync, where it changes nothing more.
 */
export const sendInvoiceStatus: JobHandler<'send-invoice-status'> = async (
  { tenantId, invoiceId, statusCode },
  deps,
) => {
  const target = await execute(getInvoiceStatusTarget, { invoice_id: invoiceId }, systemCaller(tenantId), deps);
  if (target.skip) return { skipped: 'not uploaded' };
  const event = await deps.einvoicingProvider.sendStatus(target.account as ProviderAccountRef, {
    invoiceId: target.pdp_id!,
    statusCode,
  });
  return { event_id: event.id };
};
