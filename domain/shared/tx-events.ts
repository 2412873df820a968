import type { Knex } from 'knex';
import type { EventName } from '../webhooks/event-catalogue.js';
import type { Caller, Environment } from './caller.js';
import type { JobSender } from './tx-jobs.js';

/** Event data always names the resource it is about. */
export type EventData = { id: string } & Record<string, unknown>;

export interface EmitOptions {
  tenantId?: string;
  environment?: Environment;
}

/** Writes domain events to the outbox in the operation's transaction and queues their dispatch. */
export interface EventEmitter {
  emit(name: EventName, data: EventData, options?: EmitOptions): Promise<string>;
}

export function txEvents(tx: Knex.Transaction, jobs: JobSender, caller: Caller, now: () => Date): EventEmitter {
  return {
    async emit(name, data, options = {}) {
      const tenantId = options.tenantId ?? caller.tenantId;
      const environment = options.environment ?? caller.environment;
      if (!tenantId || !environment) throw new Error(`event ${name} needs a tenant and an environment`);
      const [row] = await tx('events')
        .insert({ tenant_id: tenantId, environment, name, data, created_at: now() })
        .returning<{ id: string }[]>('id');
      await jobs.send('dispatch-event', { eventId: row.id, tenantId }, { group: { id: tenantId } });
      return row.id;
    },
  };
}

export const noEvents: EventEmitter = {
  emit: () => Promise.reject(new Error('queries cannot emit events; make the operation a command')),
};
