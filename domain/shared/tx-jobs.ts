import type { Knex } from 'knex';
import { fromKnex, type PgBoss, type SendOptions } from 'pg-boss';
import { FairShare, WAITED_ON_PRIORITY } from './fair-share.js';
import { prepared } from './prepared-statements.js';
import { type JobPayloads, QUEUES, type QueueName } from './queues.js';

/** One job of a `sendMany`: its payload and the options a batch may vary per job. */
export interface JobToSend<Q extends QueueName> {
  payload: JobPayloads[Q];
  group?: { id: string };
}

/** Sends jobs inside the operation's transaction: a rollback drops them (pg-boss `docs/api/adapters.md`). */
export interface JobSender {
  send<Q extends QueueName>(queue: Q, payload: JobPayloads[Q], options?: SendOptions): Promise<string | null>;
  /** Many jobs of one queue in one statement (pg-boss `insert`), for operations that write in batches. */
  sendMany<Q extends QueueName>(queue: Q, jobs: readonly JobToSend<Q>[]): Promise<void>;
  /**
   * A job someone is waiting on now, ahead of every queued job of its queue (WAITED_ON_PRIORITY),
   * and at most one per `key` and minute however often they ask (pg-boss `singletonSeconds`: a
   * repeat within the minute is dropped, null). The job must be harmless when it repeats one still
   * queued: the queued one then finds its work done.
   */
  sendFirst<Q extends QueueName>(queue: Q, payload: JobPayloads[Q], key: string): Promise<string | null>;
}

/** How long `sendFirst` drops the repeats of a key. */
export const SEND_FIRST_ONCE_PER_SECONDS = 60;

/** This process's share of the worker pool between tenants (fair-share.ts). */
const fairShare = new FairShare();

/** A tenant's job (one with a `group`) gets its fair-share priority, unless the caller set one. */
const prioritised = (queue: QueueName, options: SendOptions): SendOptions =>
  options.group && options.priority === undefined
    ? { ...options, priority: fairShare.next(queue, options.group.id) }
    : options;

/**
 * pg-boss's statements in the operation's transaction, each run as a named statement: a job insert
 * is planned once per connection instead of at every send (prepared-statements.ts). pg-boss's own
 * knex adapter, given a transaction whose `raw` marks what it runs.
 */
const preparedAdapter = (tx: Knex.Transaction) =>
  fromKnex({
    raw: (sql: string, bindings: readonly unknown[]) => prepared(tx.raw(sql, bindings as Knex.RawBinding[]), 'pgboss'),
  } as never);

/** The only caller of `boss.send` and `boss.insert`. */
export function txJobs(boss: PgBoss, tx: Knex.Transaction): JobSender {
  const db = preparedAdapter(tx);
  return {
    send: (queue, payload, options = {}) =>
      boss.send(queue, payload, { ...QUEUES[queue].send, ...prioritised(queue, options), db }),
    async sendMany(queue, jobs) {
      if (jobs.length === 0) return;
      const defaults = QUEUES[queue].send ?? {};
      await boss.insert(
        queue,
        jobs.map((job) => ({
          ...defaults,
          data: job.payload,
          ...(job.group ? prioritised(queue, { group: job.group }) : {}),
        })),
        { db },
      );
    },
    sendFirst: (queue, payload, key) =>
      boss.send(queue, payload, {
        ...QUEUES[queue].send,
        priority: WAITED_ON_PRIORITY,
        singletonKey: key,
        singletonSeconds: SEND_FIRST_ONCE_PER_SECONDS,
        db,
      }),
  };
}

const refuse = () => Promise.reject(new Error('queries cannot send jobs; make the operation a command'));
export const noJobs: JobSender = { send: refuse, sendMany: refuse, sendFirst: refuse };
