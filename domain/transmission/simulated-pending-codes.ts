import type { Knex } from 'knex';
import type { InvoiceRow } from '../invoicing/index.js';
import type { OperationContext } from '../shared/operation.js';
import { applyProviderEvents } from './lifecycle-events.js';
import { forceSimulatedEvent } from './simulator-store.js';

/**
 * Sandbox `simulate` on a submitted invoice whose upload is still queued. Waiting in the request for
 * the worker would tie a web process to a worker that may be busy, stopped or scaled to zero; so the
 * code is recorded instead, and the worker applies it when it records the upload. Both sides lock
 * the invoice row first (`simulate` and `record_invoice_upload` take FOR UPDATE), so either the call
 * sees the `pdp_id` and applies the code at once, or the upload's record sees the queued code: no
 * order loses it.
 */
export async function queueSimulatedCode(
  tx: Knex,
  invoice: Pick<InvoiceRow, 'id' | 'tenant_id'>,
  code: string,
  reason: string | null,
  now: Date,
): Promise<void> {
  await tx('simulated_pending_codes').insert({
    tenant_id: invoice.tenant_id,
    invoice_id: invoice.id,
    status_code: code,
    reason,
    requested_at: now,
  });
}

/** The codes still waiting for an invoice's upload, oldest first. */
export const queuedSimulatedCodes = (tx: Knex, invoiceId: string) =>
  tx('simulated_pending_codes')
    .where({ invoice_id: invoiceId })
    .orderBy('id')
    .select<{ status_code: string; reason: string | null }[]>('status_code', 'reason');

/**
 * Applies, in the order they were asked, the codes queued before the upload landed, as `simulate`
 * would have (the automatic path is dropped), then forgets them. Called with the invoice row locked.
 */
export async function applyQueuedSimulations(
  ctx: OperationContext,
  connection: { id: string; tenant_id: string },
  invoiceId: string,
  pdpId: string,
): Promise<number> {
  const queued = await queuedSimulatedCodes(ctx.tx, invoiceId);
  for (const { status_code, reason } of queued) {
    const event = await forceSimulatedEvent(
      ctx.tx,
      { tenantId: connection.tenant_id, connectionId: connection.id, pdpId },
      status_code,
      reason,
      ctx.clock.now(),
    );
    await applyProviderEvents(ctx, connection, [event]);
  }
  await dropQueuedSimulations(ctx.tx, invoiceId);
  return queued.length;
}

/** Forgets an invoice's queued codes (its upload failed: there is nothing to apply them to). */
export const dropQueuedSimulations = (tx: Knex, invoiceId: string) =>
  tx('simulated_pending_codes').where({ invoice_id: invoiceId }).delete();
