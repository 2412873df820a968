import { generateInvoiceDocuments } from '../../domain/invoicing/operations/index.js';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import type { BatchJobHandler, JobHandler } from '../job-handler.js';

/**
 * Renders and stores the files of a batch of invoices in one transaction: one outcome per job, in
 * order. The operation is idempotent, so a retried job is harmless.
 */
export const generateInvoiceDocumentsBatch: BatchJobHandler<'generate-invoice-documents'> = async (jobs, deps) =>
  (
    await execute(
      generateInvoiceDocuments,
      { invoices: jobs.map((job) => ({ id: job.invoiceId, tenant_id: job.tenantId })) },
      systemCaller(),
      deps,
    )
  ).invoices;

/** The same for one job (a batch of one, or each job of a batch that failed as a whole). */
export const generateInvoiceDocumentsJob: JobHandler<'generate-invoice-documents'> = async (job, deps) =>
  (await generateInvoiceDocumentsBatch([job], deps))[0];
