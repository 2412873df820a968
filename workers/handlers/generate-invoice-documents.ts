import { generateInvoiceDocuments } from '../../domain/invoicing/operations/generate-invoice-documents.js';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import type { JobHandler } from '../job-handler.js';

/** Renders and stores an invoice's files; the operation is idempotent, so a retried job is harmless. */
export const generateInvoiceDocumentsJob: JobHandler<'generate-invoice-documents'> = (job, deps) =>
  execute(generateInvoiceDocuments, { id: job.invoiceId }, systemCaller(job.tenantId), deps);
