import type { Knex } from 'knex';
import { fromKnex, type PgBoss, type SendOptions } from 'pg-boss';
import { type JobPayloads, QUEUES, type QueueName } from './queues.js';

/** Sends jobs inside the operation's transaction: a rollback drops them (pg-boss `docs/api/adapters.md`). */
export interface JobSender {
  send<Q extends QueueName>(queue: Q, payload: JobPayloads[Q], options?: SendOptions): Promise<string | null>;
}

/** The only caller of `boss.send`. */
export function txJobs(boss: PgBoss, tx: Knex.Transaction): JobSender {
  const db = fromKnex(tx);
  return {
    send: (queue, payload, options = {}) => boss.send(queue, payload, { ...QUEUES[queue].send, ...options, db }),
  };
}

export const noJobs: JobSender = {
  send: () => Promise.reject(new Error('queries cannot send jobs; make the operation a command')),
};
