import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import { dispatchEvent as dispatchEventOperation } from '../../domain/webhooks/operations/dispatch-event.js';
import type { JobHandler } from '../job-handler.js';

export const dispatchEvent: JobHandler<'dispatch-event'> = async ({ eventId, tenantId }, deps) =>
  execute(dispatchEventOperation, { event_id: eventId }, systemCaller(tenantId), deps);
