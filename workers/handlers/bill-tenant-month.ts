import { generateBillingInvoiceDocuments, issueBillingInvoice } from '../../domain/billing/operations/index.js';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import type { JobHandler } from '../job-handler.js';

/**
 * Issues a tenant's invoice for the month (once: a rerun finds it), then renders its Factur-X in a
 * transaction of its own, so the operator's number sequence is never held while a PDF is drawn.
 */
export const billTenantMonth: JobHandler<'bill-tenant-month'> = async (job, deps) => {
  const caller = systemCaller(job.tenantId);
  const issued = await execute(issueBillingInvoice, { tenant_id: job.tenantId, month: job.month }, caller, deps);
  const invoice = issued.billing_invoice;
  if (invoice && invoice.documents_status === 'pending') {
    await execute(generateBillingInvoiceDocuments, { id: invoice.id }, caller, deps);
  }
  return { outcome: issued.outcome, id: invoice?.id ?? null };
};
