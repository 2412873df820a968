import { systemCaller } from '../../domain/shared/caller.js';
import type { Deps } from '../../domain/shared/deps.js';
import { execute } from '../../domain/shared/execute.js';
import type { JobPayloads } from '../../domain/shared/queues.js';
import {
  prepareWebhookDeliveries,
  prepareWebhookDelivery,
  recordWebhookAttempt,
  recordWebhookAttempts,
} from '../../domain/webhooks/operations/index.js';
import type { BatchJobHandler, JobHandler } from '../job-handler.js';

type Job = JobPayloads['deliver-webhook'];
type RecordInput = Parameters<typeof recordWebhookAttempt.run>[0];

/** What one attempt came to before it is recorded: skipped (nothing to send), or sent with its outcome. */
type Sent = { skipped: string } | { record: RecordInput; success: boolean; status_code: number | null };

type Prepared = Awaited<ReturnType<typeof prepareWebhookDelivery.run>>;

/** Prepares (and signs) one attempt in a read-only transaction: whether it is still to be made. */
const prepare = ({ tenantId, deliveryId, attempt }: Job, deps: Deps): Promise<Prepared> =>
  execute(prepareWebhookDelivery, { delivery_id: deliveryId, attempt }, systemCaller(tenantId), deps);

/**
 * Sends a prepared attempt, outside any transaction. A worker killed after the call leaves the
 * attempt unrecorded: pg-boss works the job again once its heartbeat stops, and the same attempt
 * goes out again with the same X-Service-Delivery.
 */
async function send({ deliveryId, attempt }: Job, prepared: Prepared, deps: Deps): Promise<Sent> {
  if (!prepared.send || !prepared.request) return { skipped: prepared.reason ?? 'nothing to send' };
  const attemptedAt = deps.clock.now();
  const outcome = await deps.webhookSender.send(prepared.request);
  return {
    record: {
      delivery_id: deliveryId,
      attempt,
      url: prepared.request.url,
      attempted_at: attemptedAt.toISOString(),
      ...outcome,
    },
    success: outcome.success,
    status_code: outcome.status_code,
  };
}

const outputOf = (job: Job, sent: Sent, recorded?: object) =>
  'skipped' in sent
    ? { delivery_id: job.deliveryId, attempt: job.attempt, skipped: sent.skipped }
    : {
        delivery_id: job.deliveryId,
        attempt: job.attempt,
        success: sent.success,
        status_code: sent.status_code,
        ...recorded,
      };

/** One attempt of one delivery: prepared, sent, then recorded with another `execute` (which queues the next). */
export const deliverWebhook: JobHandler<'deliver-webhook'> = async (job, deps) => {
  const sent = await send(job, await prepare(job, deps), deps);
  if ('skipped' in sent) return outputOf(job, sent);
  return outputOf(job, sent, await execute(recordWebhookAttempt, sent.record, systemCaller(job.tenantId), deps));
};

/** The indexes of a batch's jobs, by tenant (each tenant's steps run in its own transaction). */
function byTenant(jobs: readonly Job[], keep: (i: number) => boolean = () => true): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  jobs.forEach((job, i) => {
    if (keep(i)) groups.set(job.tenantId, [...(groups.get(job.tenantId) ?? []), i]);
  });
  return groups;
}

/**
 * A fetched batch: every attempt prepared first, a tenant's in one read-only transaction (so a
 * database failure sends nothing), then sent at once, then the attempts of each tenant recorded in
 * one transaction (one commit, and each endpoint's health moved once, last), the tenants'
 * transactions side by side. If recording fails, each job runs alone again once every transaction
 * has ended: its attempt goes out once more with the same X-Service-Delivery, which receivers
 * deduplicate (at least once), unless its tenant's transaction committed it, which the job then finds.
 */
export const deliverWebhookBatch: BatchJobHandler<'deliver-webhook'> = async (jobs, deps) => {
  const prepared: Prepared[] = [];
  await Promise.all(
    [...byTenant(jobs)].map(async ([tenantId, indexes]) => {
      const { deliveries } = await execute(
        prepareWebhookDeliveries,
        { deliveries: indexes.map((i) => ({ delivery_id: jobs[i].deliveryId, attempt: jobs[i].attempt })) },
        systemCaller(tenantId),
        deps,
      );
      indexes.forEach((jobIndex, k) => {
        prepared[jobIndex] = deliveries[k];
      });
    }),
  );
  const sent = await Promise.all(jobs.map((job, i) => send(job, prepared[i], deps)));
  const recordings = await Promise.allSettled(
    [...byTenant(jobs, (i) => !('skipped' in sent[i]))].map(async ([tenantId, indexes]) => {
      const { attempts } = await execute(
        recordWebhookAttempts,
        { attempts: indexes.map((i) => (sent[i] as { record: RecordInput }).record) },
        systemCaller(tenantId),
        deps,
      );
      return indexes.map((jobIndex, k) => [jobIndex, attempts[k]] as const);
    }),
  );
  const failed = recordings.find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  const recorded = new Map(recordings.flatMap((outcome) => (outcome.status === 'fulfilled' ? outcome.value : [])));
  return jobs.map((job, i) => outputOf(job, sent[i], recorded.get(i)));
};
