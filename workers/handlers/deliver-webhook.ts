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

/**
 * A fetched batch, of any tenants: every attempt prepared first in one read-only transaction (so a
 * database failure sends nothing), then sent at once, then every attempt recorded in one
 * transaction (one commit, each endpoint's health moved once, last). Both run as the system, each
 * delivery matched on its job's tenant: a batch spread over ten tenants is two transactions, not
 * twenty, and holds one connection at a time. If recording fails, each job runs alone again: its
 * attempt goes out once more with the same X-Service-Delivery, which receivers deduplicate (at
 * least once).
 */
export const deliverWebhookBatch: BatchJobHandler<'deliver-webhook'> = async (jobs, deps) => {
  const { deliveries: prepared } = await execute(
    prepareWebhookDeliveries,
    { deliveries: jobs.map((job) => ({ delivery_id: job.deliveryId, attempt: job.attempt, tenant_id: job.tenantId })) },
    systemCaller(),
    deps,
  );
  const sent = await Promise.all(jobs.map((job, i) => send(job, prepared[i], deps)));
  const toRecord = jobs.flatMap((job, i) => {
    const attempt = sent[i];
    return 'skipped' in attempt ? [] : [{ index: i, attempt: { ...attempt.record, tenant_id: job.tenantId } }];
  });
  const recorded = new Map<number, object>();
  if (toRecord.length > 0) {
    const { attempts } = await execute(
      recordWebhookAttempts,
      { attempts: toRecord.map((r) => r.attempt) },
      systemCaller(),
      deps,
    );
    toRecord.forEach((r, k) => {
      recorded.set(r.index, attempts[k]);
    });
  }
  return jobs.map((job, i) => outputOf(job, sent[i], recorded.get(i)));
};
