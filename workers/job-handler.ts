import type { Deps } from '../domain/shared/deps.js';
import type { JobPayloads, QueueName } from '../domain/shared/queues.js';

/** A job handler: thin, idempotent, and calling the domain only through `execute`. */
export type JobHandler<Q extends QueueName> = (payload: JobPayloads[Q], deps: Deps) => Promise<unknown>;

/**
 * A handler of a whole fetched batch at once (one transaction for all its jobs): resolves with one
 * output per job, in order. When it throws, each job of the batch is run alone by the queue's
 * `JobHandler`, so that every job gets its own outcome (one bad job does not fail its batch).
 */
export type BatchJobHandler<Q extends QueueName> = (payloads: JobPayloads[Q][], deps: Deps) => Promise<unknown[]>;
