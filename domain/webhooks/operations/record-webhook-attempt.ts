import type {
  RecordedWebhookAttempt,
  RecordWebhookAttemptInput,
  RecordWebhookAttemptsInput,
} from '../../../schemas/webhook-deliveries.js';
import type { Environment } from '../../shared/caller.js';
import { defineCommand, type OperationContext } from '../../shared/operation.js';
import {
  type AttemptRow,
  type DeliveryProgress,
  type DeliveryRow,
  type DeliveryStatus,
  findDeliveries,
  insertAttempts,
  updateDeliveries,
} from '../delivery-store.js';
import { type AttemptOutcome, applyAttemptOutcomes } from '../endpoint-health.js';
import { retryDelayMs } from '../retry-schedule.js';

/** Schema `RecordedWebhookAttempt`: the type comes from the schema. */
export type { RecordedWebhookAttempt };

/** An attempt to record, with the tenant its delivery must belong to. */
type AttemptInput = RecordWebhookAttemptsInput['attempts'][number];

/**
 * Last step of a `deliver-webhook` job: logs the attempt and decides what follows, in one
 * transaction. A 2xx ends the delivery; another failure queues the next attempt after the schedule's
 * delay (with jitter) until the attempts are spent; 410 Gone, or an endpoint failing for
 * FAILING_DAYS, disables the endpoint. An attempt that is not the next one (a job run twice) changes
 * nothing.
 */
export const recordWebhookAttempt = defineCommand<RecordWebhookAttemptInput, RecordedWebhookAttempt>({
  name: 'record_webhook_attempt',
  summary: 'Record one webhook delivery attempt and schedule the next one, end the delivery or disable the endpoint.',
  input: 'RecordWebhookAttemptInput',
  output: 'RecordedWebhookAttempt',
  callers: ['system'],
  run: async (input, ctx) => (await recordAttempts([{ ...input, tenant_id: ctx.caller.tenantId! }], ctx))[0],
});

/**
 * The attempts of a batch of `deliver-webhook` jobs, each recorded as `recordWebhookAttempt` records
 * it, in one transaction: one commit for the batch, and each endpoint's health moved once, by the
 * last statement (its row lock held for that statement and the commit). Runs as the system across
 * tenants: each delivery is matched on the tenant of its job, and everything an attempt writes (its
 * log, its retry, its endpoint's health, a disabled endpoint's event) goes to its delivery's tenant.
 */
export const recordWebhookAttempts = defineCommand<RecordWebhookAttemptsInput, { attempts: RecordedWebhookAttempt[] }>({
  name: 'record_webhook_attempts',
  summary: 'Record a batch of webhook delivery attempts, of any tenants, in one transaction (worker step).',
  input: 'RecordWebhookAttemptsInput',
  output: 'RecordedWebhookAttempts',
  callers: ['system'],
  run: async ({ attempts }, ctx) => ({ attempts: await recordAttempts(attempts, ctx) }),
});

/**
 * Records the attempts in order, with a fixed number of statements whatever their number: their
 * deliveries read and locked at once (in id order), each attempt judged against its delivery as the
 * earlier ones of the batch left it (a job run twice in one batch records once), the attempts logged
 * and the deliveries moved in one statement each; then each endpoint's health once, last (see
 * applyAttemptOutcomes).
 */
async function recordAttempts(
  inputs: readonly AttemptInput[],
  ctx: OperationContext,
): Promise<RecordedWebhookAttempt[]> {
  const deliveries = new Map(
    (
      await findDeliveries(
        ctx.tx,
        inputs.map((input) => ({ id: input.delivery_id, tenant_id: input.tenant_id })),
        { forUpdate: true },
      )
    ).map((delivery) => [delivery.id, delivery]),
  );
  const now = ctx.clock.now();
  const recorded = inputs.map((input) => recordAttempt(input, deliveries.get(input.delivery_id), now, ctx));
  const written = recorded.filter((r) => r.attempt !== undefined);
  await insertAttempts(
    ctx.tx,
    written.map((r) => r.attempt!),
  );
  await updateDeliveries(
    ctx.tx,
    [...new Set(written.map((r) => r.attempt!.delivery_id!))].map((id) => progressOf(deliveries.get(id)!)),
  );
  for (const { retry } of written) {
    if (retry) {
      await ctx.jobs.send(
        'deliver-webhook',
        { tenantId: retry.tenantId, deliveryId: retry.deliveryId, attempt: retry.attempt },
        { startAfter: retry.at, group: { id: retry.tenantId } },
      );
    }
  }
  const byEndpoint = new Map<string, { tenantId: string; environment: Environment; outcomes: AttemptOutcome[] }>();
  for (const { endpoint } of recorded) {
    if (!endpoint) continue;
    const entry = byEndpoint.get(endpoint.id) ?? {
      tenantId: endpoint.tenantId,
      environment: endpoint.environment,
      outcomes: [],
    };
    entry.outcomes.push(endpoint.outcome);
    byEndpoint.set(endpoint.id, entry);
  }
  // In id order, as the deliveries were locked: two batches sharing endpoints take turns, never deadlock.
  for (const [endpointId, { tenantId, environment, outcomes }] of [...byEndpoint].sort(([a], [b]) =>
    a < b ? -1 : 1,
  )) {
    await applyAttemptOutcomes(ctx, tenantId, endpointId, outcomes, environment);
  }
  return recorded.map((r) => r.answer);
}

/** What the batch changed on a delivery, for `updateDeliveries`. */
const progressOf = (d: DeliveryRow): DeliveryProgress => ({
  id: d.id,
  tenant_id: d.tenant_id,
  attempts: d.attempts,
  status: d.status,
  last_attempt_at: d.last_attempt_at,
  next_attempt_at: d.next_attempt_at,
  completed_at: d.completed_at,
});

/** A recorded attempt: its answer, its log row, its retry, and what it does to its endpoint's health. */
interface Recorded {
  answer: RecordedWebhookAttempt;
  attempt?: Omit<AttemptRow, 'id'>;
  retry?: { tenantId: string; deliveryId: string; attempt: number; at: Date };
  endpoint?: { id: string; tenantId: string; environment: Environment; outcome: AttemptOutcome };
}

/** Judges one attempt against its delivery and moves the delivery (in memory) to what follows. */
function recordAttempt(
  input: AttemptInput,
  delivery: DeliveryRow | undefined,
  now: Date,
  ctx: OperationContext,
): Recorded {
  if (!delivery || delivery.attempts !== input.attempt - 1) {
    return { answer: { recorded: false, status: delivery?.status ?? 'cancelled', next_attempt_at: null } };
  }
  const attemptedAt = new Date(input.attempted_at);
  // Ended while the call was in flight (endpoint paused, deleted or disabled): logged, nothing follows.
  const stillPending = delivery.status === 'pending';
  const gone = input.status_code === 410;
  const retry = stillPending && !input.success && !gone && input.attempt < delivery.max_attempts;
  const nextAt = retry
    ? new Date(now.getTime() + retryDelayMs(ctx.deps.config.webhookRetrySchedule, input.attempt))
    : null;
  const status: DeliveryStatus = !stillPending
    ? delivery.status
    : input.success
      ? 'succeeded'
      : retry
        ? 'pending'
        : 'failed';
  const attempt: Omit<AttemptRow, 'id'> = {
    tenant_id: delivery.tenant_id,
    endpoint_id: delivery.endpoint_id,
    delivery_id: delivery.id,
    event_id: delivery.event_id,
    event_name: delivery.event_name,
    attempt: input.attempt,
    is_test: false,
    url: input.url,
    success: input.success,
    response_status: input.status_code,
    response_time_ms: input.response_time_ms,
    response_body: input.response_body,
    error_message: input.error,
    next_attempt_at: nextAt,
    attempted_at: attemptedAt,
  };
  Object.assign(delivery, {
    attempts: input.attempt,
    status,
    last_attempt_at: attemptedAt,
    next_attempt_at: nextAt,
    completed_at: status === 'pending' ? null : (delivery.completed_at ?? now),
  });
  return {
    answer: { recorded: true, status, next_attempt_at: nextAt?.toISOString() ?? null },
    attempt,
    ...(nextAt
      ? { retry: { tenantId: delivery.tenant_id, deliveryId: delivery.id, attempt: input.attempt + 1, at: nextAt } }
      : {}),
    endpoint: {
      id: delivery.endpoint_id,
      tenantId: delivery.tenant_id,
      environment: delivery.environment,
      outcome: { attemptedAt, success: input.success, gone },
    },
  };
}
