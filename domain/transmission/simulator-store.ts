import type { Knex } from 'knex';
import { AppError } from '../shared/app-error.js';
import type { ProviderEvent } from './einvoicing-provider.js';
import { labelOf } from './lifecycle.js';

/** A `simulated_provider_events` row. */
export interface SimulatedEventRow {
  id: string;
  invoice_id: string;
  status_code: string;
  status_text: string;
  reason: string | null;
  visible_at: Date;
}

export const toSimulatedEvent = (row: SimulatedEventRow): ProviderEvent => ({
  id: String(row.id),
  invoiceId: String(row.invoice_id),
  statusCode: row.status_code,
  statusText: row.status_text,
  reason: row.reason,
  createdAt: row.visible_at.toISOString(),
});

/** The simulated network's automatic path for an uploaded outgoing invoice, one step apart. */
export const SIMULATED_PATH = ['api:uploaded', 'fr:200', 'fr:202', 'fr:205'] as const;

/** Appends events to a simulated invoice's log; `visibleAt` may lie ahead (a scheduled step). */
export async function insertSimulatedEvents(
  tx: Knex,
  invoice: { id: string; tenantId: string; connectionId: string },
  events: readonly { code: string; reason?: string | null; visibleAt: Date }[],
): Promise<SimulatedEventRow[]> {
  return tx('simulated_provider_events')
    .insert(
      events.map((e) => ({
        tenant_id: invoice.tenantId,
        connection_id: invoice.connectionId,
        invoice_id: invoice.id,
        status_code: e.code,
        status_text: labelOf(e.code),
        reason: e.reason ?? null,
        visible_at: e.visibleAt,
      })),
    )
    .returning<SimulatedEventRow[]>(['id', 'invoice_id', 'status_code', 'status_text', 'reason', 'visible_at']);
}

/**
 * The sandbox `simulate` call: the invoice leaves its automatic path (the steps not reached yet are
 * dropped) and gets the forced code now. The simulator is ours, so this writes in the caller's
 * transaction.
 */
export async function forceSimulatedEvent(
  tx: Knex,
  target: { tenantId: string; connectionId: string; pdpId: string },
  code: string,
  reason: string | null,
  now: Date,
): Promise<ProviderEvent> {
  const invoice = await tx('simulated_provider_invoices')
    .where({ id: target.pdpId, tenant_id: target.tenantId, connection_id: target.connectionId })
    .first<{ id: string } | undefined>('id');
  if (!invoice) throw new AppError('NOT_FOUND', 'The simulator holds no such invoice.');
  await tx.raw(
    `delete from simulated_provider_events where invoice_id = ? and visible_at > ?
       and id > (select coalesce(max(id), 0) from simulated_provider_events where invoice_id = ? and visible_at <= ?)`,
    [invoice.id, now, invoice.id, now],
  );
  const [row] = await insertSimulatedEvents(
    tx,
    { id: invoice.id, tenantId: target.tenantId, connectionId: target.connectionId },
    [{ code, reason, visibleAt: now }],
  );
  return toSimulatedEvent(row);
}
