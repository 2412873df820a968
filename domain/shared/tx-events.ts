import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Caller, Environment } from './caller.js';
import type { EventName } from './event-catalogue.js';
import type { TableRows } from './insert-together.js';
import { prepared } from './prepared-statements.js';
import type { JobSender } from './tx-jobs.js';

/** Event data always names the resource it is about. */
export type EventData = { id: string } & Record<string, unknown>;

export interface EmitOptions {
  tenantId?: string;
  environment?: Environment;
}

export interface EventToEmit {
  name: EventName;
  data: EventData;
  options?: EmitOptions;
}

/** Events whose outbox rows a caller writes with other rows (insert-together.ts), then queues. */
export interface PreparedEvents {
  ids: string[];
  rows: TableRows;
  /** Queues their dispatch, once `rows` are written in the transaction. */
  queue(): Promise<void>;
}

/** Writes domain events to the outbox in the operation's transaction and queues their dispatch. */
export interface EventEmitter {
  emit(name: EventName, data: EventData, options?: EmitOptions): Promise<string>;
  /** Many events in one insert and one job statement; returns their ids in order. */
  emitMany(events: readonly EventToEmit[]): Promise<string[]>;
  /** What `emitMany` writes, for a caller that inserts the rows with others in one statement. */
  prepareMany(events: readonly EventToEmit[]): PreparedEvents;
}

export function txEvents(tx: Knex.Transaction, jobs: JobSender, caller: Caller, now: () => Date): EventEmitter {
  const prepareMany = (events: readonly EventToEmit[]): PreparedEvents => {
    const at = now();
    const rows = events.map(({ name, data, options = {} }) => {
      const tenantId = options.tenantId ?? caller.tenantId;
      const environment = options.environment ?? caller.environment;
      if (!tenantId || !environment) throw new Error(`event ${name} needs a tenant and an environment`);
      return { id: randomUUID(), tenant_id: tenantId, environment, name, data, created_at: at };
    });
    return {
      ids: rows.map((row) => row.id),
      rows: { table: 'events', rows },
      queue: () =>
        jobs.sendMany(
          'dispatch-event',
          rows.map((row) => ({ payload: { eventId: row.id, tenantId: row.tenant_id }, group: { id: row.tenant_id } })),
        ),
    };
  };
  const emitMany = async (events: readonly EventToEmit[]): Promise<string[]> => {
    if (events.length === 0) return [];
    const batch = prepareMany(events);
    await prepared(tx('events').insert(batch.rows.rows), 'insert_events');
    await batch.queue();
    return batch.ids;
  };
  return {
    emitMany,
    prepareMany,
    async emit(name, data, options = {}) {
      const [id] = await emitMany([{ name, data, options }]);
      return id;
    },
  };
}

const refusal = () => new Error('queries cannot emit events; make the operation a command');
const refuse = () => Promise.reject(refusal());
export const noEvents: EventEmitter = {
  emit: refuse,
  emitMany: refuse,
  prepareMany: () => {
    throw refusal();
  },
};
