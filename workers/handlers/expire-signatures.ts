import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import { expireSignatures } from '../../domain/signatures/operations/index.js';
import type { JobHandler } from '../job-handler.js';

export const expireSignaturesJob: JobHandler<'expire-signatures'> = async (_payload, deps) =>
  execute(expireSignatures, {}, systemCaller(), deps);
