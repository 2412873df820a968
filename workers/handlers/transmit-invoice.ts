import { AppError, isAppError } from '../../domain/shared/app-error.js';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import type { ProviderAccountRef, UploadResult } from '../../domain/transmission/index.js';
import { prepareInvoiceTransmission, recordInvoiceUpload } from '../../domain/transmission/operations/index.js';
import type { JobHandler } from '../job-handler.js';

/**
 * Uploads a submitted invoice once (DECISIONS.md "Invoice lifecycle"): our own state first (`pdp_id`
 * set: nothing to do), then the provider's (`findUploaded` by our invoice id as `external_id`, which
 * recovers an upload whose worker died before recording it), and only then the upload, outside any
 * transaction. The outcome is recorded with `execute`. An unreachable provider is counted and
 * retried; after the last attempt the invoice is `failed`.
 */
export const transmitInvoice: JobHandler<'transmit-invoice'> = async ({ tenantId, invoiceId }, deps) => {
  const caller = systemCaller(tenantId);
  const plan = await execute(prepareInvoiceTransmission, { invoice_id: invoiceId }, caller, deps);
  if (plan.action === 'skip') return { skipped: plan.reason };
  if (plan.action === 'wait') {
    throw new AppError('DOCUMENT_NOT_READY', `Invoice ${invoiceId}: ${plan.reason}; retried shortly.`);
  }
  const account = plan.account as ProviderAccountRef;
  const record = (outcome: 'accepted' | 'refused' | 'unavailable', extra: Record<string, unknown>) =>
    execute(recordInvoiceUpload, { invoice_id: invoiceId, outcome, connection_id: account.id, ...extra }, caller, deps);
  let result: UploadResult;
  try {
    const found = await deps.einvoicingProvider.findUploaded(account, plan.external_id!);
    if (found) return record('accepted', { pdp_id: found, events: [] });
    result = await deps.einvoicingProvider.upload(account, {
      externalId: plan.external_id!,
      processingRule: plan.processing_rule!,
      file: {
        bytes: Buffer.from(plan.file_base64!, 'base64'),
        contentType: plan.content_type!,
        filename: plan.filename!,
      },
    });
  } catch (err) {
    if (!isAppError(err) || err.code !== 'PROVIDER_UNAVAILABLE') throw err;
    const outcome = await record('unavailable', { message: err.message.slice(0, 2000) });
    if (outcome.retry) throw err;
    return outcome;
  }
  if (result.outcome === 'refused') return record('refused', { message: result.message.slice(0, 2000) });
  return record('accepted', { pdp_id: result.pdpId, events: result.events });
};
