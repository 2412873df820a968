import { generateCreditNoteDocuments } from '../../domain/credit-notes/operations/index.js';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import type { JobHandler } from '../job-handler.js';

/** Renders and stores a credit note's files; the operation is idempotent, so a retried job is harmless. */
export const generateCreditNoteDocumentsJob: JobHandler<'generate-credit-note-documents'> = (job, deps) =>
  execute(generateCreditNoteDocuments, { id: job.creditNoteId }, systemCaller(job.tenantId), deps);
