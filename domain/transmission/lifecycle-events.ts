import { auditInvoice, type InvoiceRow } from '../invoicing/index.js';
import { cleanText } from '../shared/clean-text.js';
import type { OperationContext } from '../shared/operation.js';
import { isDataRefusal } from '../shared/pg-errors.js';
import type { ProviderEvent } from './einvoicing-provider.js';
import { type InvoiceStatus, LIFECYCLE_RULES, labelOf, nextStatus } from './lifecycle.js';
import { recordPayment } from './record-payment.js';

/**
 * Applies provider events to the connection's invoices, in the caller's transaction: each event is
 * stored once (a re-read page changes nothing), then the transition table moves the invoice and
 * emits its webhook; `fr:212` records the payment in the fiscal ledger. An event of a provider
 * invoice id we do not know yet is kept in `provider_unmatched_events`: `applyParkedEvents` applies
 * it once the upload that carries that id is recorded. Returns how many were new.
 */
export async function applyProviderEvents(
  ctx: OperationContext,
  connection: { id: string; tenant_id: string },
  events: readonly ProviderEvent[],
): Promise<number> {
  let applied = 0;
  for (const raw of events) {
    // Each event in its own savepoint: one the database refuses (or that is no event at all) is
    // kept in provider_event_errors with why, and the others of the page, and the cursor, go on.
    try {
      const event = checkedEvent(raw);
      if (await ctx.tx.transaction((sp) => applyOne({ ...ctx, tx: sp }, connection, event))) applied++;
    } catch (err) {
      if (!(err instanceof UnusableEvent) && !isDataRefusal(err)) throw err;
      ctx.log.warn({ err, provider_event_id: raw.id }, 'provider event not applied; kept with its error');
      await ctx
        .tx('provider_event_errors')
        .insert({
          tenant_id: connection.tenant_id,
          connection_id: connection.id,
          provider_event_id: cleanText(String(raw.id), 200) ?? '?',
          event: JSON.stringify(raw),
          error: cleanText((err as Error).message, 1000) ?? 'unknown error',
          recorded_at: ctx.clock.now(),
        })
        .onConflict(['connection_id', 'provider_event_id'])
        .ignore();
    }
  }
  return applied;
}

/** An event that can never be applied as sent. */
class UnusableEvent extends Error {
  override readonly name = 'UnusableEvent';
}

/**
 * An event's texts as PostgreSQL and the input schemas take them (no NUL, no lone surrogate,
 * bounded lengths); never throws, so a page of events always reaches the recording step, which
 * keeps an event it cannot apply instead of failing the page.
 */
export function cleanProviderEvent(event: ProviderEvent): ProviderEvent {
  return {
    id: cleanText(String(event.id ?? ''), 200) ?? '',
    invoiceId: cleanText(String(event.invoiceId ?? ''), 200) ?? '',
    statusCode: cleanText(String(event.statusCode ?? ''), 40) ?? '',
    statusText: cleanText(String(event.statusText ?? ''), 1000) ?? '',
    reason: typeof event.reason === 'string' ? cleanText(event.reason, 1000) : null,
    createdAt: cleanText(String(event.createdAt ?? ''), 100) ?? '',
  };
}

/** A clean event whose date is one; else why it cannot be applied. */
function checkedEvent(raw: ProviderEvent): ProviderEvent {
  const event = cleanProviderEvent(raw);
  const at = new Date(event.createdAt);
  if (!event.createdAt || Number.isNaN(at.getTime()))
    throw new UnusableEvent(`the event's date ${JSON.stringify(event.createdAt).slice(0, 60)} is not a date`);
  if (!event.id || !event.invoiceId) throw new UnusableEvent('the event has no id or no invoice id');
  return { ...event, createdAt: at.toISOString() };
}

/** Applies one event; false when it was already stored. */
async function applyOne(
  ctx: OperationContext,
  connection: { id: string; tenant_id: string },
  event: ProviderEvent,
): Promise<boolean> {
  const invoice = await ctx
    .tx('invoices')
    .where({ tenant_id: connection.tenant_id, provider_connection_id: connection.id, pdp_id: event.invoiceId })
    .forUpdate()
    .first<InvoiceRow | undefined>();
  if (!invoice) {
    await ctx
      .tx('provider_unmatched_events')
      .insert({
        tenant_id: connection.tenant_id,
        connection_id: connection.id,
        pdp_invoice_id: event.invoiceId,
        provider_event_id: event.id,
        event: JSON.stringify(event),
        recorded_at: ctx.clock.now(),
      })
      .onConflict(['connection_id', 'provider_event_id'])
      .ignore();
    return false;
  }
  const label = labelOf(event.statusCode, event.statusText);
  const stored = await ctx
    .tx('invoice_lifecycle_events')
    .insert({
      tenant_id: invoice.tenant_id,
      invoice_id: invoice.id,
      provider_event_id: event.id,
      code: event.statusCode,
      label,
      reason: event.reason,
      occurred_at: event.createdAt,
      recorded_at: ctx.clock.now(),
    })
    .onConflict(['invoice_id', 'provider_event_id'])
    .ignore()
    .returning('id');
  if (stored.length === 0) return false;
  const copy = { code: event.statusCode, label, reason: event.reason, at: event.createdAt };
  const [withEvent] = await ctx
    .tx('invoices')
    .where({ id: invoice.id })
    .update({ lifecycle_events: ctx.tx.raw('lifecycle_events || ?::jsonb', [JSON.stringify([copy])]) })
    .returning<InvoiceRow[]>('*');
  await applyRule(ctx, withEvent, event, label);
  return true;
}

/**
 * Applies an upload's first events together with those kept for its provider invoice id before we
 * knew it (a sync that ran between the upload and its record), in the provider's order.
 */
export async function applyUploadEvents(
  ctx: OperationContext,
  connection: { id: string; tenant_id: string },
  pdpInvoiceId: string,
  uploadEvents: readonly ProviderEvent[],
): Promise<number> {
  const parked = await ctx
    .tx('provider_unmatched_events')
    .where({ connection_id: connection.id, pdp_invoice_id: pdpInvoiceId })
    .select<{ event: ProviderEvent }[]>('event');
  const byId = new Map([...uploadEvents, ...parked.map((row) => row.event)].map((e) => [e.id, e]));
  const events = [...byId.values()].sort((a, b) =>
    BigInt(a.id) < BigInt(b.id) ? -1 : BigInt(a.id) > BigInt(b.id) ? 1 : 0,
  );
  return applyProviderEvents(ctx, connection, events);
}

async function applyRule(ctx: OperationContext, invoice: InvoiceRow, event: ProviderEvent, label: string) {
  const rule = LIFECYCLE_RULES[event.statusCode] ?? {};
  const next = nextStatus(invoice.status as InvoiceStatus, rule);
  const now = ctx.clock.now();
  const changes: Record<string, unknown> = {};
  if (rule.setsMessage) {
    changes.status_message = `${event.statusCode} ${label}${event.reason ? `: ${event.reason}` : ''}`.slice(0, 1000);
  }
  if (rule.paymentSent && !invoice.payment_sent_at) changes.payment_sent_at = event.createdAt;
  if (next) changes.status = next;
  if (next === 'paid') {
    Object.assign(
      changes,
      await recordPayment(ctx, invoice, {
        reference: `pdp:${invoice.pdp_id}:event:${event.id}`,
        date: event.createdAt.slice(0, 10),
      }),
    );
  }
  if (Object.keys(changes).length === 0) return;
  const [updated] = await ctx
    .tx('invoices')
    .where({ id: invoice.id })
    .update({ ...changes, updated_at: now })
    .returning<InvoiceRow[]>('*');
  if (!next) return;
  await auditInvoice(ctx.tx, invoice, {
    action: `invoice.${next}`,
    details: { previous_status: invoice.status, lifecycle_code: event.statusCode, reason: event.reason },
    actorIp: null,
    actor: { type: 'provider', id: event.id },
    now,
  });
  if (rule.event) await ctx.events.emit(rule.event, invoiceEventData(updated, event.statusCode), ownerOf(updated));
}

export const ownerOf = (invoice: InvoiceRow) => ({ tenantId: invoice.tenant_id, environment: invoice.environment });

/** Webhook data of a lifecycle change: the invoice's id, and `status_message` on rejection. */
export const invoiceEventData = (invoice: InvoiceRow, code: string | null) => ({
  id: invoice.id,
  invoice_number: invoice.invoice_number,
  external_id: invoice.external_id,
  status: invoice.status,
  status_message: invoice.status_message,
  pdp_id: invoice.pdp_id,
  lifecycle_code: code,
  sub_tenant_id: invoice.sub_tenant_id,
});
