import type { Knex } from 'knex';
import type { Environment } from '../shared/caller.js';
import { prepared } from '../shared/prepared-statements.js';
import { tableColumns } from '../shared/table-columns.js';
import { keepAsked, type TenantKey, whereTenantKeys } from '../shared/tenant-keys.js';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'cancelled';

export interface DeliveryRow {
  id: string;
  tenant_id: string;
  endpoint_id: string;
  event_id: string;
  event_name: string;
  environment: Environment;
  status: DeliveryStatus;
  attempts: number;
  max_attempts: number;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  completed_at: Date | null;
  created_at: Date;
}

/** One (event, endpoint) pair each; a pair that exists already is skipped. Returns the new rows. */
export function insertDeliveries(
  tx: Knex,
  rows: Omit<DeliveryRow, 'id' | 'status' | 'attempts' | 'next_attempt_at' | 'last_attempt_at' | 'completed_at'>[],
): Promise<Pick<DeliveryRow, 'id' | 'endpoint_id' | 'event_id' | 'tenant_id'>[]> {
  if (rows.length === 0) return Promise.resolve([]);
  return tx('webhook_deliveries')
    .insert(rows)
    .onConflict(['event_id', 'endpoint_id'])
    .ignore()
    .returning(['id', 'endpoint_id', 'event_id', 'tenant_id']);
}

/**
 * The deliveries of `keys`, of any tenants, in id order (the order their rows are locked in): each
 * one only if it belongs to the tenant it is asked with.
 */
export async function findDeliveries(
  tx: Knex,
  keys: readonly TenantKey[],
  options: { forUpdate?: boolean } = {},
): Promise<DeliveryRow[]> {
  const columns = tx.raw(await tableColumns(tx, 'webhook_deliveries'));
  const query = whereTenantKeys(tx('webhook_deliveries'), keys).orderBy('id').select<DeliveryRow[]>(columns);
  return keepAsked(await prepared(options.forUpdate ? query.forUpdate() : query, 'find_deliveries'), keys);
}

/** What an attempt changes on its delivery. */
export type DeliveryProgress = Pick<
  DeliveryRow,
  'id' | 'tenant_id' | 'attempts' | 'status' | 'last_attempt_at' | 'next_attempt_at' | 'completed_at'
>;

/** Moves each delivery (of any tenants, each matched on its own) to its state after its attempts, in one statement. */
export async function updateDeliveries(tx: Knex, rows: readonly DeliveryProgress[]): Promise<void> {
  if (rows.length === 0) return;
  await prepared(
    tx.raw(
      `update webhook_deliveries d
       set attempts = v.attempts, status = v.status, last_attempt_at = v.last_attempt_at,
         next_attempt_at = v.next_attempt_at, completed_at = v.completed_at
       from jsonb_to_recordset(?::jsonb) as v(id uuid, tenant_id uuid, attempts int, status text,
         last_attempt_at timestamptz, next_attempt_at timestamptz, completed_at timestamptz)
       where d.tenant_id = v.tenant_id and d.id = v.id`,
      [JSON.stringify(rows)],
    ),
    'update_deliveries',
  );
}

/** Stops the pending deliveries of an endpoint (deleted or disabled): their next jobs find nothing to do. */
export const cancelPendingDeliveries = (tx: Knex, tenantId: string, endpointId: string, now: Date): Promise<number> =>
  tx('webhook_deliveries')
    .where({ tenant_id: tenantId, endpoint_id: endpointId, status: 'pending' })
    .update({ status: 'cancelled', completed_at: now, next_attempt_at: null });

export interface AttemptRow {
  id: string;
  tenant_id: string;
  endpoint_id: string;
  delivery_id: string | null;
  event_id: string | null;
  event_name: string;
  attempt: number;
  is_test: boolean;
  url: string;
  success: boolean;
  response_status: number | null;
  response_time_ms: number;
  response_body: string | null;
  error_message: string | null;
  next_attempt_at: Date | null;
  attempted_at: Date;
}

export const insertAttempt = (tx: Knex, row: Omit<AttemptRow, 'id'>): Promise<void> => insertAttempts(tx, [row]);

/** Logs attempts, in one statement. */
export const insertAttempts = async (tx: Knex, rows: readonly Omit<AttemptRow, 'id'>[]): Promise<void> => {
  if (rows.length === 0) return;
  await prepared(tx('webhook_attempts').insert(rows), 'insert_webhook_attempts');
};

/** Attempts of one endpoint, newest first (id as tie-breaker). */
export const attemptsQuery = (tx: Knex, tenantId: string, endpointId: string): Knex.QueryBuilder =>
  tx('webhook_attempts')
    .where({ tenant_id: tenantId, endpoint_id: endpointId })
    .select('*')
    .orderBy([
      { column: 'attempted_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ]);
