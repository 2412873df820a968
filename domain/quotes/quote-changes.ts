import { actorOf } from '../audit/index.js';
import type { EventName } from '../shared/event-catalogue.js';
import type { OperationContext } from '../shared/operation.js';
import { appendQuoteAudit } from './quote-audit.js';
import type { QuoteRow } from './quote-row.js';

export type QuoteAction =
  | 'created'
  | 'updated'
  | 'duplicated'
  | 'sent'
  | 'viewed'
  | 'accepted'
  | 'refused'
  | 'expired'
  | 'cancelled'
  | 'converted'
  | 'link_regenerated'
  | 'link_revoked';

const EVENTS: Partial<Record<QuoteAction, EventName>> = {
  created: 'quote.created',
  duplicated: 'quote.created',
  updated: 'quote.updated',
  sent: 'quote.sent',
  viewed: 'quote.viewed',
  accepted: 'quote.accepted',
  refused: 'quote.refused',
  expired: 'quote.expired',
  cancelled: 'quote.cancelled',
  converted: 'quote.converted',
};

/**
 * Records a change of a quote in its transaction: the entry of its hash-chained log (`quote.<action>`)
 * and, for status changes, the webhook event of the same name. The buyer acting on the public page
 * is recorded as `{kind: 'buyer'}` with the page's IP.
 */
export async function recordQuoteChange(
  ctx: OperationContext,
  quote: QuoteRow,
  action: QuoteAction,
  details: Record<string, unknown> = {},
): Promise<void> {
  const now = ctx.clock.now();
  const buyer = ctx.caller.kind === 'anonymous';
  await appendQuoteAudit(ctx.tx, {
    tenantId: quote.tenant_id,
    quoteId: quote.id,
    action: `quote.${action}`,
    details: { quote_number: quote.quote_number, status: quote.status, ...details },
    actor: buyer ? { kind: 'buyer', user_agent: ctx.caller.userAgent ?? null } : actorOf(ctx.caller),
    actorIp: ctx.caller.ip ?? null,
    now,
  });
  const event = EVENTS[action];
  if (!event) return;
  await ctx.events.emit(
    event,
    {
      id: quote.id,
      quote_number: quote.quote_number,
      status: quote.status,
      sub_tenant_id: quote.sub_tenant_id,
      total_ht: Number(quote.total_ht),
      total_ttc: Number(quote.total_ttc),
      currency: quote.currency,
      ...details,
    },
    { tenantId: quote.tenant_id, environment: quote.environment },
  );
}
