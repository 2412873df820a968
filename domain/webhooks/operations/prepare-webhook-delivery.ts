import type {
  PreparedWebhookDelivery,
  PrepareWebhookDeliveriesInput,
  PrepareWebhookDeliveryInput,
} from '../../../schemas/webhook-deliveries.js';
import { defineQuery, type OperationContext } from '../../shared/operation.js';
import { prepared } from '../../shared/prepared-statements.js';
import { keepAsked, type TenantKey, whereTenantKeys } from '../../shared/tenant-keys.js';
import { type DeliveryRow, findDeliveries } from '../delivery-store.js';
import { ENDPOINT_COLUMNS } from '../endpoint-store.js';
import { envelopeOf, type OutboxEvent } from '../envelope.js';
import { signedRequest } from '../signed-request.js';
import type { WebhookEndpointRow } from '../webhook-endpoint.js';

/** Schema `PreparedWebhookDelivery`: the type comes from the schema. */
export type { PreparedWebhookDelivery };

const skip = (reason: string): PreparedWebhookDelivery => ({ send: false, reason });

/**
 * First step of a `deliver-webhook` job: whether attempt `attempt` is still to be made, and its
 * signed request. A job run again after its attempt was recorded (a worker that died after
 * recording), or whose delivery ended meanwhile, sends nothing.
 */
export const prepareWebhookDelivery = defineQuery<PrepareWebhookDeliveryInput, PreparedWebhookDelivery>({
  name: 'prepare_webhook_delivery',
  summary: 'Build the signed request of one webhook delivery attempt, unless there is nothing left to send.',
  input: 'PrepareWebhookDeliveryInput',
  output: 'PreparedWebhookDelivery',
  callers: ['system'],
  run: async (input, ctx) => (await prepareAttempts([{ ...input, tenant_id: ctx.caller.tenantId! }], ctx))[0],
});

/**
 * The first step of a batch of `deliver-webhook` jobs, each prepared as `prepareWebhookDelivery`
 * prepares it, with three reads whatever their number. Runs as the system across tenants: each
 * delivery is matched on the tenant of its job, and its endpoint and event on the delivery's tenant.
 */
export const prepareWebhookDeliveries = defineQuery<
  PrepareWebhookDeliveriesInput,
  { deliveries: PreparedWebhookDelivery[] }
>({
  name: 'prepare_webhook_deliveries',
  summary: 'Build the signed requests of a batch of webhook delivery attempts, of any tenants (worker step).',
  input: 'PrepareWebhookDeliveriesInput',
  output: 'PreparedWebhookDeliveries',
  callers: ['system'],
  run: async ({ deliveries }, ctx) => ({ deliveries: await prepareAttempts(deliveries, ctx) }),
});

/** An attempt to prepare, with the tenant its delivery must belong to. */
type AttemptKey = PrepareWebhookDeliveriesInput['deliveries'][number];

/** The deliveries, then the endpoints and events of those still to attempt, each read at once. */
async function prepareAttempts(
  inputs: readonly AttemptKey[],
  ctx: OperationContext,
): Promise<PreparedWebhookDelivery[]> {
  const deliveries = new Map(
    (
      await findDeliveries(
        ctx.tx,
        inputs.map((input) => ({ id: input.delivery_id, tenant_id: input.tenant_id })),
      )
    ).map((d) => [d.id, d]),
  );
  const judged = inputs.map((input): Judged => {
    const delivery = deliveries.get(input.delivery_id);
    const reason = notDue(input, delivery);
    return reason === null ? { input, delivery: delivery! } : { reason };
  });
  const due = judged.flatMap((j) => ('delivery' in j ? [j.delivery] : []));
  const endpoints = await rowsById<WebhookEndpointRow>(
    ctx,
    'webhook_endpoints',
    due.map((d) => ({ id: d.endpoint_id, tenant_id: d.tenant_id })),
    ENDPOINT_COLUMNS,
    'endpoints_by_id',
  );
  const events = await rowsById<OutboxEvent & { tenant_id: string }>(
    ctx,
    'events',
    due.filter((d) => endpoints.get(d.endpoint_id)?.is_active).map((d) => ({ id: d.event_id, tenant_id: d.tenant_id })),
    ['id', 'tenant_id', 'name', 'environment', 'data', 'created_at'],
    'delivery_events',
  );
  return judged.map((j) => {
    if ('reason' in j) return skip(j.reason);
    const { input, delivery } = j;
    const endpoint = endpoints.get(delivery.endpoint_id);
    if (!endpoint?.is_active) return skip('endpoint inactive');
    return {
      send: true,
      request: signedRequest(
        ctx.deps.config.appKey!,
        endpoint,
        envelopeOf(events.get(delivery.event_id)!),
        { deliveryId: delivery.id, eventName: delivery.event_name, attempt: input.attempt },
        ctx.clock.now(),
      ),
    };
  });
}

/** An attempt either due, with its delivery, or not to be made, and why. */
type Judged = { input: AttemptKey; delivery: DeliveryRow } | { reason: string };

/** Why an attempt is not to be made, by its delivery alone (gone, ended, or not its next attempt); null when due. */
function notDue(input: AttemptKey, delivery: DeliveryRow | undefined): string | null {
  if (!delivery) return 'no such delivery';
  if (delivery.status !== 'pending') return `delivery ${delivery.status}`;
  if (delivery.attempts !== input.attempt - 1) return `attempt ${input.attempt} is not the next one`;
  return null;
}

/**
 * The rows of `table` with the given ids, by id, each only if it belongs to the tenant it is asked
 * with (one statement; none when there are no ids).
 */
async function rowsById<Row extends { id: string; tenant_id: string }>(
  ctx: OperationContext,
  table: string,
  keys: readonly TenantKey[],
  columns: readonly string[],
  name: string,
): Promise<Map<string, Row>> {
  if (keys.length === 0) return new Map();
  const rows: Row[] = await prepared(whereTenantKeys(ctx.tx(table), keys).select(columns), name);
  return new Map(keepAsked(rows, keys).map((row) => [row.id, row]));
}
