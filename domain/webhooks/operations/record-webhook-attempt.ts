import type {
  RecordedWebhookAttempt,
  RecordWebhookAttemptInput,
  RecordWebhookAttemptsInput,
} from '../../../schemas/webhook-deliveries.js';
import { defineCommand, type OperationContext } from '../../shared/operation.js';
import { type DeliveryStatus, findDelivery, insertAttempt } from '../delivery-store.js';
import { disableEndpoint, FAILING_DAYS, failedTooLong } from '../endpoint-health.js';
import { ENDPOINT_COLUMNS, endpointById } from '../endpoint-store.js';
import { retryDelayMs } from '../retry-schedule.js';
import type { WebhookEndpointRow } from '../webhook-endpoint.js';

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
  run: (input, ctx) => recordAttempt(input, ctx),
});

/**
 * The attempts of a batch of `deliver-webhook` jobs of one tenant, each recorded as
 * `recordWebhookAttempt` records it, in one transaction: one commit, and one turn of the endpoint's
 * row lock, for the batch (every attempt moves its endpoint's health), instead of one each.
 */
export const recordWebhookAttempts = defineCommand<RecordWebhookAttemptsInput, { attempts: RecordedWebhookAttempt[] }>({
  name: 'record_webhook_attempts',
  summary: "Record a batch of one tenant's webhook delivery attempts in one transaction (worker step).",
  input: 'RecordWebhookAttemptsInput',
  output: 'RecordedWebhookAttempts',
  callers: ['system'],
  async run({ attempts }, ctx) {
    const recorded: RecordedWebhookAttempt[] = [];
    for (const attempt of attempts) recorded.push(await recordAttempt(attempt, ctx));
    return { attempts: recorded };
  },
});

async function recordAttempt(input: RecordWebhookAttemptInput, ctx: OperationContext): Promise<RecordedWebhookAttempt> {
  const tenantId = ctx.caller.tenantId!;
  const delivery = await findDelivery(ctx.tx, tenantId, input.delivery_id, { forUpdate: true });
  if (!delivery || delivery.attempts !== input.attempt - 1) {
    return { recorded: false, status: delivery?.status ?? 'cancelled', next_attempt_at: null };
  }
  const endpoint = (await endpointById(ctx.tx, tenantId, delivery.endpoint_id))!;
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
    endpoint_id: endpoint.id,
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
  await ctx
    .tx('webhook_deliveries')
    .where({ tenant_id: tenantId, id: delivery.id })
    .update({
      attempts: input.attempt,
      status,
      last_attempt_at: attemptedAt,
      next_attempt_at: nextAt,
      completed_at: status === 'pending' ? null : (delivery.completed_at ?? now),
    });
  if (nextAt) {
    await ctx.jobs.send(
      'deliver-webhook',
      { tenantId, deliveryId: delivery.id, attempt: input.attempt + 1 },
      { startAfter: nextAt, group: { id: tenantId } },
    );
  }

  // The endpoint's health: a success ends the failure streak, a failure extends it (in SQL, so that
  // concurrent deliveries to one endpoint all count).
  const [updated] = await ctx
    .tx('webhook_endpoints')
    .where({ tenant_id: tenantId, id: endpoint.id })
    .update(
      input.success
        ? { last_triggered_at: attemptedAt, last_success_at: attemptedAt, failure_count: 0, failing_since: null }
        : {
            last_triggered_at: attemptedAt,
            last_failure_at: attemptedAt,
            failure_count: ctx.tx.raw('failure_count + 1'),
            failing_since: ctx.tx.raw('coalesce(failing_since, ?)', [attemptedAt]),
          },
    )
    .returning<WebhookEndpointRow[]>(ENDPOINT_COLUMNS);
  // A deleted or paused endpoint is inactive: nothing more to decide for it.
  if (updated.is_active && gone) {
    await disableEndpoint(ctx, updated, 'The endpoint answered 410 Gone.', delivery.environment);
  } else if (updated.is_active && updated.failing_since && failedTooLong(updated.failing_since, now)) {
    await disableEndpoint(
      ctx,
      updated,
      `Every delivery attempt failed for ${FAILING_DAYS} days (since ${updated.failing_since.toISOString()}).`,
      delivery.environment,
    );
  }
  return { recorded: true, status, next_attempt_at: nextAt?.toISOString() ?? null };
}
