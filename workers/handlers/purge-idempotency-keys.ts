import { purgeIdempotencyKeys as purgeOperation } from '../../domain/platform/operations/index.js';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import type { JobHandler } from '../job-handler.js';

export const purgeIdempotencyKeys: JobHandler<'purge-idempotency-keys'> = async (_payload, deps) =>
  execute(purgeOperation, {}, systemCaller(), deps);
