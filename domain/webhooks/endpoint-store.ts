import type { Knex } from 'knex';
import { AppError } from '../shared/app-error.js';
import type { Environment } from '../shared/caller.js';
import { ALL_EVENTS } from '../shared/event-catalogue.js';
import { prepared } from '../shared/prepared-statements.js';
import type { WebhookEndpointRow } from './webhook-endpoint.js';

/** Every column but `deleted_at` (deleted endpoints are never read back). */
export const ENDPOINT_COLUMNS = [
  'id',
  'tenant_id',
  'kind',
  'url',
  'description',
  'events',
  'environment',
  'secret_encrypted',
  'secret_last4',
  'headers_encrypted',
  'header_names',
  'timeout_seconds',
  'retry_count',
  'is_active',
  'disabled_at',
  'disabled_reason',
  'failure_count',
  'failing_since',
  'last_triggered_at',
  'last_success_at',
  'last_failure_at',
  'created_at',
  'updated_at',
];

/** A user may keep this many live endpoints. */
export const MAX_ENDPOINTS = 20;

/** Live endpoints of one tenant. */
export const liveEndpoints = (tx: Knex, tenantId: string): Knex.QueryBuilder =>
  tx('webhook_endpoints').where({ tenant_id: tenantId }).whereNull('deleted_at');

export const endpointNotFound = (id: string): AppError =>
  new AppError('NOT_FOUND', `No webhook endpoint ${id}. List yours with GET /api/v1/webhooks.`, { retryable: false });

/**
 * One of the tenant's endpoints managed through /v1/webhooks, or 404 (another owner's, a deleted
 * one and the tenant-profile URL look alike from outside).
 */
export async function findEndpoint(
  tx: Knex,
  tenantId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<WebhookEndpointRow> {
  const query = liveEndpoints(tx, tenantId)
    .where({ id, kind: 'endpoint' })
    .first<WebhookEndpointRow | undefined>(ENDPOINT_COLUMNS);
  const row = await (options.forUpdate ? query.forUpdate() : query);
  if (!row) throw endpointNotFound(id);
  return row;
}

/** An endpoint by id whatever its kind, deleted ones included (workers). */
export const endpointById = (tx: Knex, tenantId: string, id: string): Promise<WebhookEndpointRow | undefined> =>
  prepared(tx('webhook_endpoints').where({ tenant_id: tenantId, id }).first(ENDPOINT_COLUMNS), 'endpoint_by_id');

/** The tenant's own `webhook_url` endpoint of one environment (PUT /v1/tenant/me), if one is set. */
export const tenantProfileEndpoint = (
  tx: Knex,
  tenantId: string,
  environment: Environment,
): Promise<WebhookEndpointRow | undefined> =>
  liveEndpoints(tx, tenantId).where({ kind: 'tenant_profile', environment }).forUpdate().first(ENDPOINT_COLUMNS);

/** Newest first, with the id as tie-breaker so pages never overlap. */
export const listEndpointsQuery = (tx: Knex, tenantId: string): Knex.QueryBuilder =>
  liveEndpoints(tx, tenantId)
    .where({ kind: 'endpoint' })
    .select(ENDPOINT_COLUMNS)
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ]);

export async function insertEndpoint(
  tx: Knex,
  row: Omit<
    WebhookEndpointRow,
    | 'failure_count'
    | 'failing_since'
    | 'disabled_at'
    | 'disabled_reason'
    | 'last_triggered_at'
    | 'last_success_at'
    | 'last_failure_at'
  >,
): Promise<WebhookEndpointRow> {
  const [inserted] = await tx('webhook_endpoints').insert(row).returning<WebhookEndpointRow[]>(ENDPOINT_COLUMNS);
  return inserted;
}

export async function updateEndpoint(
  tx: Knex,
  tenantId: string,
  id: string,
  changes: Partial<WebhookEndpointRow> & { deleted_at?: Date },
): Promise<WebhookEndpointRow> {
  const [row] = await liveEndpoints(tx, tenantId)
    .where({ id })
    .update(changes)
    .returning<WebhookEndpointRow[]>(ENDPOINT_COLUMNS);
  if (!row) throw endpointNotFound(id);
  return row;
}

/** An active endpoint, with what it needs to tell whether it takes an event. */
export interface SubscribedEndpoint extends Pick<WebhookEndpointRow, 'id' | 'retry_count'> {
  /** Of its tenant and environment (an event never leaves its environment), and subscribed to its name. */
  takes(event: { tenant_id: string; environment: Environment; name: string }): boolean;
}

/** The active endpoints of many tenants, oldest first: one read for a batch of events. */
export async function subscribedEndpointsOfTenants(
  tx: Knex,
  tenantIds: readonly string[],
): Promise<SubscribedEndpoint[]> {
  const rows = await tx('webhook_endpoints')
    .whereIn('tenant_id', tenantIds)
    .whereNull('deleted_at')
    .where({ is_active: true })
    .orderBy('created_at')
    .select<Pick<WebhookEndpointRow, 'id' | 'retry_count' | 'tenant_id' | 'environment' | 'events'>[]>([
      'id',
      'retry_count',
      'tenant_id',
      'environment',
      'events',
    ]);
  return rows.map((row) => ({
    id: row.id,
    retry_count: row.retry_count,
    takes: (event) =>
      event.tenant_id === row.tenant_id &&
      event.environment === row.environment &&
      (row.events.includes(event.name) || row.events.includes(ALL_EVENTS)),
  }));
}
