import { AppError } from '../shared/app-error.js';
import type { OperationContext } from '../shared/operation.js';
import { type IncomingDecision, STATUS_CODES, TRANSITIONS } from './incoming-codes.js';
import { incomingReaderOf, viewsOf } from './incoming-reader.js';
import { appendEvent, findIncoming } from './incoming-store.js';
import type { IncomingInvoiceView } from './incoming-view.js';

export interface DecisionDetails {
  reasonCode?: string;
  reasonText?: string;
  /** Mark-paid only: the payment's reference, means and day (each may be null). */
  payment?: { reference: string | null; meansCode: string | null; paidAt: string };
}

/** Who decided, for the history (never a secret: the credential's kind and row id). */
const actorOf = (ctx: OperationContext) => ({
  kind: ctx.caller.kind,
  user_id: ctx.caller.userId ?? null,
  credential: ctx.caller.credential ? { type: ctx.caller.credential.type, id: ctx.caller.credential.id } : null,
});

/**
 * A buyer's decision on a supplier invoice: checks the transition table (409 INVALID_STATE
 * otherwise), records the decision and its history event, and, for an invoice received through the
 * provider, the lifecycle status to send back (`fr:205`, `fr:210`, `fr:207`, `fr:211`) with its
 * `send-incoming-status` job, all in the operation's transaction. The provider is called by the
 * worker, after commit. Emits `invoice.incoming.<status>`. Incoming invoices are never charged.
 */
export async function decideIncoming(
  ctx: OperationContext,
  id: string,
  decision: IncomingDecision,
  details: DecisionDetails = {},
): Promise<IncomingInvoiceView> {
  const row = await findIncoming(ctx.tx, incomingReaderOf(ctx.caller), id, { forUpdate: true });
  const transition = TRANSITIONS[decision];
  if (!transition.from.includes(row.status)) {
    throw new AppError(
      'INVALID_STATE',
      `This incoming invoice is ${row.status}: it cannot be ${transition.to} (allowed from ${transition.from.join(' or ')}).`,
      { body: { status: row.status } },
    );
  }
  const now = ctx.clock.now();
  const statusCode = STATUS_CODES[decision];
  const actor = actorOf(ctx);
  const changes: Record<string, unknown> = {
    status: transition.to,
    decided_at: now,
    decided_by: actor,
    updated_at: now,
  };
  if (details.reasonText !== undefined)
    Object.assign(changes, { reason_code: details.reasonCode, reason_text: details.reasonText });
  if (details.payment) {
    Object.assign(changes, {
      payment_reference: details.payment.reference,
      payment_means_code: details.payment.meansCode,
      paid_at: details.payment.paidAt,
    });
  }
  await ctx.tx('incoming_invoices').where({ id: row.id, tenant_id: row.tenant_id }).update(changes);
  const eventId = await appendEvent(ctx.tx, row, {
    status: transition.to,
    statusCode,
    reasonCode: details.reasonCode ?? null,
    reasonText: details.reasonText ?? null,
    actor,
    at: now,
  });
  if (row.source === 'provider' && row.pdp_id && row.provider_account_id) {
    await ctx.tx('incoming_status_sends').insert({
      event_id: eventId,
      tenant_id: row.tenant_id,
      incoming_invoice_id: row.id,
      status_code: statusCode,
      created_at: now,
    });
    await ctx.jobs.send('send-incoming-status', { tenantId: row.tenant_id, eventId }, { group: { id: row.tenant_id } });
  }
  const [view] = await viewsOf(ctx.tx, [await findIncoming(ctx.tx, incomingReaderOf(ctx.caller), id)]);
  await ctx.events.emit(`invoice.incoming.${transition.to}` as 'invoice.incoming.accepted', eventData(view), {
    tenantId: row.tenant_id,
    environment: row.environment,
  });
  return view;
}

/** The webhook `data` of incoming-invoice events: the identifying fields, not the lines. */
export const eventData = (view: IncomingInvoiceView) => ({
  id: view.id,
  status: view.status,
  sub_tenant_id: view.sub_tenant_id,
  pdp_id: view.pdp_id,
  invoice_number: view.invoice_number,
  seller: view.seller,
  total_ttc: view.total_ttc,
  currency: view.currency,
  reason_code: view.reason_code,
  reason: view.reason,
  payment_reference: view.payment_reference,
  paid_at: view.paid_at,
});
