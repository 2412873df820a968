import type { Environment } from '../shared/caller.js';
import type { OperationContext } from '../shared/operation.js';
import { prepared } from '../shared/prepared-statements.js';
import { cancelPendingDeliveries } from './delivery-store.js';
import { ENDPOINT_COLUMNS, updateEndpoint } from './endpoint-store.js';
import type { WebhookEndpointRow } from './webhook-endpoint.js';

/**
 * An endpoint whose every attempt failed for this long (no success in between) is disabled: with
 * the default schedule a delivery gives up after about 27.5 hours, so this is at least two whole
 * deliveries failing end to end.
 */
export const FAILING_DAYS = 3;

/** Whether an endpoint failing since `since` has failed long enough to be disabled. */
export const failedTooLong = (since: Date, now: Date): boolean =>
  now.getTime() - since.getTime() >= FAILING_DAYS * 86_400_000;

/**
 * Disables an endpoint for good (until its owner re-enables it): its pending deliveries stop, the
 * owner gets a technical e-mail (job `notify-webhook-disabled`), and a `webhook_endpoint.disabled`
 * event goes to the owner's other endpoints that take it.
 */
export async function disableEndpoint(
  ctx: OperationContext,
  endpoint: WebhookEndpointRow,
  reason: string,
  environment: Environment,
): Promise<void> {
  const now = ctx.clock.now();
  await updateEndpoint(ctx.tx, endpoint.tenant_id, endpoint.id, {
    is_active: false,
    disabled_at: now,
    disabled_reason: reason,
    updated_at: now,
  });
  await cancelPendingDeliveries(ctx.tx, endpoint.tenant_id, endpoint.id, now);
  await ctx.jobs.send(
    'notify-webhook-disabled',
    { tenantId: endpoint.tenant_id, endpointId: endpoint.id },
    { group: { id: endpoint.tenant_id } },
  );
  await ctx.events.emit(
    'webhook_endpoint.disabled',
    { id: endpoint.id, url: endpoint.url, reason, disabled_at: now.toISOString() },
    { tenantId: endpoint.tenant_id, environment },
  );
  ctx.log.warn({ webhook_endpoint_id: endpoint.id, reason }, 'webhook endpoint disabled');
}

/** One recorded attempt as its endpoint's health sees it. */
export interface AttemptOutcome {
  attemptedAt: Date;
  success: boolean;
  /** The endpoint answered 410 Gone. */
  gone: boolean;
}

/**
 * Moves an endpoint's health by the attempts of one transaction, in one statement, as if each had
 * been applied in the order they were made: a success ends the failure streak, a failure extends it.
 * Called once per endpoint at the end of the recording transaction, so the endpoint's row lock is
 * held for that statement and the commit only: concurrent batches of deliveries to one endpoint take
 * turns on it briefly instead of for their whole transaction. In SQL, so concurrent transactions all
 * count. Then 410 Gone, or a streak older than FAILING_DAYS, disables an active endpoint.
 */
export async function applyAttemptOutcomes(
  ctx: OperationContext,
  tenantId: string,
  endpointId: string,
  outcomes: readonly AttemptOutcome[],
  environment: Environment,
): Promise<void> {
  if (outcomes.length === 0) return;
  const sorted = [...outcomes].sort((a, b) => a.attemptedAt.getTime() - b.attemptedAt.getTime());
  const lastAt = sorted[sorted.length - 1].attemptedAt;
  const lastSuccess = sorted.findLast((o) => o.success)?.attemptedAt ?? null;
  const failures = sorted.filter((o) => !o.success);
  const streak = lastSuccess ? failures.filter((o) => o.attemptedAt > lastSuccess) : failures;
  const raw = ctx.tx.raw.bind(ctx.tx);
  const changes: Record<string, unknown> = { last_triggered_at: raw('greatest(last_triggered_at, ?)', [lastAt]) };
  if (lastSuccess) changes.last_success_at = raw('greatest(last_success_at, ?)', [lastSuccess]);
  if (failures.length > 0) {
    changes.last_failure_at = raw('greatest(last_failure_at, ?)', [failures[failures.length - 1].attemptedAt]);
  }
  if (lastSuccess) {
    changes.failure_count = streak.length;
    changes.failing_since = streak[0]?.attemptedAt ?? null;
  } else {
    changes.failure_count = raw('failure_count + ?', [streak.length]);
    changes.failing_since = raw('coalesce(failing_since, ?)', [streak[0].attemptedAt]);
  }
  const [updated] = await prepared(
    ctx
      .tx('webhook_endpoints')
      .where({ tenant_id: tenantId, id: endpointId })
      .update(changes)
      .returning<WebhookEndpointRow[]>(ENDPOINT_COLUMNS),
    'endpoint_health',
  );
  // A deleted or paused endpoint is inactive: nothing more to decide for it.
  if (!updated?.is_active) return;
  const now = ctx.clock.now();
  if (outcomes.some((o) => o.gone)) {
    await disableEndpoint(ctx, updated, 'The endpoint answered 410 Gone.', environment);
  } else if (updated.failing_since && failedTooLong(updated.failing_since, now)) {
    await disableEndpoint(
      ctx,
      updated,
      `Every delivery attempt failed for ${FAILING_DAYS} days (since ${updated.failing_since.toISOString()}).`,
      environment,
    );
  }
}
