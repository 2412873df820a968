import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import { completeSignature } from '../../domain/signatures/operations/index.js';
import type { JobHandler } from '../job-handler.js';

/** Completes a request whose last signer signed a large document: its files are made here, off the web process. */
export const completeSignatureJob: JobHandler<'complete-signature'> = async ({ tenantId, signatureId }, deps) => {
  const done = await execute(completeSignature, { id: signatureId }, systemCaller(tenantId), deps);
  return { signature_id: signatureId, status: done.status };
};
