import type {
  RecordedWebhookAttempt,
  RecordWebhookAttemptInput,
  RecordWebhookAttemptsInput,
} from '../../../schemas/webhook-deliveries.js';
import type { Environment } from '../../shared/caller.js';
import { defineCommand, type OperationContext } from '../../shared/operation.js';
import { prepared } from '../../shared/prepared-statements.js';
import { type DeliveryStatus, findDelivery, insertAttempt } from '../delivery-store.js';
import { type AttemptOutcome, applyAttemptOutcomes } from '../endpoint-health.js';
import { retryDelayMs } from '../retry-schedule.js';

/** Schema `RecordedWebhookAttempt`: the type comes from the schema. */
export type { RecordedWebhookAttempt };

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
  run: async (input, ctx) => (await recordAttempts([input], ctx))[0],
});

/**
 * The attempts of a batch of `deliver-webhook` jobs of one tenant, each recorded as
 * `recordWebhookAttempt` records it, in one transaction: one commit for the batch, and each endpoint's
 * health moved once, by the last statement (its row lock held for that statement and the commit).
 */
export const recordWebhookAttempts = defineCommand<RecordWebhookAttemptsInput, { attempts: RecordedWebhookAttempt[] }>({
  name: 'record_webhook_attempts',
  summary: "Record a batch of one tenant's webhook delivery attempts in one transaction (worker step).",
  input: 'RecordWebhookAttemptsInput',
  output: 'RecordedWebhookAttempts',
  callers: ['system'],
  run: async ({ attempts }, ctx) => ({ attempts: await recordAttempts(attempts, ctx) }),
});

/** A recorded attempt, and what it does to its endpoint's health (applied once per endpoint). */
interface Recorded {
  answer: RecordedWebhookAttempt;
  endpoint?: { id: string; environment: Environment; outcome: AttemptOutcome };
}

/** Records the attempts in order, then moves each endpoint's health once, last (see applyAttemptOutcomes). */
async function recordAttempts(
  inputs: readonly RecordWebhookAttemptInput[],
  ctx: OperationContext,
): Promise<RecordedWebhookAttempt[]> {
  const recorded: Recorded[] = [];
  for (const input of inputs) recorded.push(await recordAttempt(input, ctx));
  const byEndpoint = new Map<string, { environment: Environment; outcomes: AttemptOutcome[] }>();
  for (const { endpoint } of recorded) {
    if (!endpoint) continue;
    const entry = byEndpoint.get(endpoint.id) ?? { environment: endpoint.environment, outcomes: [] };
    entry.outcomes.push(endpoint.outcome);
    byEndpoint.set(endpoint.id, entry);
  }
  for (const [endpointId, { environment, outcomes }] of byEndpoint) {
    await applyAttemptOutcomes(ctx, ctx.caller.tenantId!, endpointId, outcomes, environment);
  }
  return recorded.map((r) => r.answer);
}

async function recordAttempt(input: RecordWebhookAttemptInput, ctx: OperationContext): Promise<Recorded> {
  const tenantId = ctx.caller.tenantId!;
  const delivery = await findDelivery(ctx.tx, tenantId, input.delivery_id, { forUpdate: true });
  if (!delivery || delivery.attempts !== input.attempt - 1) {
    return { answer: { recorded: false, status: delivery?.status ?? 'cancelled', next_attempt_at: null } };
  }
  const now = ctx.clock.now();
  const attemptedAt = new Date(input.attempted_at);
  // Ended while the call was in flight (endpoint paused, deleted or disabled): logged, nothing follows.
  const stillPending = delivery.status === 'pending';
  const gone = input.status_code === 410;
  const retry = stillPending && !input.success && !gone && input.attempt < delivery.max_attempts;
  const nextAt = retry
    ? new Date(now.getTime() + retryDelayMs(ctx.deps.config.webhookRetrySchedule, input.attempt))
    : null;

  await insertAttempt(ctx.tx, {
    tenant_id: tenantId,
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
  });
  const status: DeliveryStatus = !stillPending
    ? delivery.status
    : input.success
      ? 'succeeded'
      : retry
        ? 'pending'
        : 'failed';
  await prepared(
    ctx
      .tx('webhook_deliveries')
      .where({ tenant_id: tenantId, id: delivery.id })
      .update({
        attempts: input.attempt,
        status,
        last_attempt_at: attemptedAt,
        next_attempt_at: nextAt,
        completed_at: status === 'pending' ? null : (delivery.completed_at ?? now),
      }),
    'record_delivery_attempt',
  );
  if (nextAt) {
    await ctx.jobs.send(
      'deliver-webhook',
      { tenantId, deliveryId: delivery.id, attempt: input.attempt + 1 },
      { startAfter: nextAt, group: { id: tenantId } },
    );
  }

  return {
    answer: { recorded: true, status, next_attempt_at: nextAt?.toISOString() ?? null },
    endpoint: {
      id: delivery.endpoint_id,
      environment: delivery.environment,
      outcome: { attemptedAt, success: input.success, gone },
    },
  };
}
