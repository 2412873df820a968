import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import { dispatchEvents } from '../../domain/webhooks/operations/index.js';
import type { BatchJobHandler, JobHandler } from '../job-handler.js';

/** Fans a batch of outbox events out to their endpoints in one transaction: one outcome per job, in order. */
export const dispatchEventBatch: BatchJobHandler<'dispatch-event'> = async (jobs, deps) =>
  (
    await execute(
      dispatchEvents,
      { events: jobs.map((job) => ({ id: job.eventId, tenant_id: job.tenantId })) },
      systemCaller(),
      deps,
    )
  ).events;

/** The same for one job (a batch of one, or each job of a batch that failed as a whole). */
export const dispatchEvent: JobHandler<'dispatch-event'> = async (job, deps) =>
  (await dispatchEventBatch([job], deps))[0];
