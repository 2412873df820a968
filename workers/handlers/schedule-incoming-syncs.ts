import { scheduleIncomingSyncs } from '../../domain/incoming/operations/index.js';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import type { JobHandler } from '../job-handler.js';

/** The daily schedule: one `sync-incoming-invoices` job per known provider account. */
export const scheduleIncomingSyncsJob: JobHandler<'schedule-incoming-syncs'> = (_payload, deps) =>
  execute(scheduleIncomingSyncs, {}, systemCaller(), deps);
