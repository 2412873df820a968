import type { Deps } from '../domain/shared/deps.js';
import type { JobPayloads, QueueName } from '../domain/shared/queues.js';

/** A job handler: thin, idempotent, and calling the domain only through `execute`. */
export type JobHandler<Q extends QueueName> = (payload: JobPayloads[Q], deps: Deps) => Promise<unknown>;
