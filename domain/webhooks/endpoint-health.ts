import type { Environment } from '../shared/caller.js';
import type { OperationContext } from '../shared/operation.js';
import { cancelPendingDeliveries } from './delivery-store.js';
import { updateEndpoint } from './endpoint-store.js';
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
