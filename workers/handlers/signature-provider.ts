import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import {
  deleteProviderSignature,
  queueProviderSignatureSyncs,
  submitSignature,
  syncSignature,
} from '../../domain/signatures/operations/index.js';
import type { JobHandler } from '../job-handler.js';

/** Hands a production request over to Openapi; a provider that is down or out of credit retries the job. */
export const submitSignatureJob: JobHandler<'submit-signature'> = ({ tenantId, signatureId }, deps) =>
  execute(submitSignature, { id: signatureId }, systemCaller(tenantId), deps);

/** Reads a request's state at Openapi and applies it. */
export const syncSignatureJob: JobHandler<'sync-signature'> = ({ tenantId, signatureId }, deps) =>
  execute(syncSignature, { id: signatureId }, systemCaller(tenantId), deps);

/** Deletes a cancelled or expired request at Openapi. */
export const deleteProviderSignatureJob: JobHandler<'delete-provider-signature'> = ({ tenantId, signatureId }, deps) =>
  execute(deleteProviderSignature, { id: signatureId }, systemCaller(tenantId), deps);

/** The poll behind the callbacks. */
export const syncProviderSignaturesJob: JobHandler<'sync-provider-signatures'> = (_payload, deps) =>
  execute(queueProviderSignatureSyncs, {}, systemCaller(), deps);
