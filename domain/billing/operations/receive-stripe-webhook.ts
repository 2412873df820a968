import type { InboundCallbackInput, InboundEventOutcome } from '../../../schemas/inbound-events.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand, type OperationContext } from '../../shared/operation.js';
import { verifyInboundSignature } from '../../webhooks/index.js';
import { processInboundEvent } from '../../webhooks/operations/index.js';
import type { TopUpRow } from '../top-up-store.js';
import { applyTopUpOutcome } from './settle-top-up.js';

interface StripeEvent {
  id?: unknown;
  type?: unknown;
  data?: { object?: Record<string, unknown> } | null;
}

const idOf = (value: unknown): string | undefined =>
  typeof value === 'string'
    ? value
    : typeof (value as { id?: unknown })?.id === 'string'
      ? (value as { id: string }).id
      : undefined;

/**
 * What a verified Stripe event does (provider-apis.md §3, Stripe's fulfilment guide): a paid
 * `checkout.session.completed` or `checkout.session.async_payment_succeeded` credits the session's
 * top-up through the same path as the confirm route (whichever comes first credits, the other
 * changes nothing); `checkout.session.async_payment_failed` marks it failed. A session that is no
 * top-up of ours, an unpaid completion (a delayed method still running) and other event types are
 * recorded and ignored. The signed payload is trusted: Stripe signed it with our endpoint's secret.
 */
async function fulfil(payload: unknown, ctx: OperationContext): Promise<void> {
  const event = payload as StripeEvent;
  const session = event.data?.object ?? {};
  const sessionId = typeof session.id === 'string' ? session.id : null;
  if (!sessionId || !String(event.type).startsWith('checkout.session.')) return;
  const row = await ctx.tx('top_ups').where({ checkout_session_id: sessionId }).first<TopUpRow | undefined>();
  if (!row) {
    ctx.log.warn({ session_id: sessionId, type: event.type }, 'stripe event for a session that is no top-up');
    return;
  }
  const paid =
    (event.type === 'checkout.session.completed' && session.payment_status === 'paid') ||
    event.type === 'checkout.session.async_payment_succeeded';
  if (paid) {
    const customer = idOf(session.customer);
    await applyTopUpOutcome(ctx, row.tenant_id, {
      top_up_id: row.id,
      outcome: 'succeeded',
      payment_intent_id: idOf(session.payment_intent) ?? '',
      amount_received: Number(session.amount_total ?? -1),
      currency: typeof session.currency === 'string' ? session.currency : '',
      ...(customer ? { customer_id: customer } : {}),
    });
  } else if (event.type === 'checkout.session.async_payment_failed') {
    await applyTopUpOutcome(ctx, row.tenant_id, {
      top_up_id: row.id,
      outcome: 'failed',
      failure_reason: 'the delayed payment failed',
    });
  }
}

const identify = (payload: unknown) => {
  const { id, type } = (payload ?? {}) as StripeEvent;
  if (typeof id !== 'string' || id.length === 0 || id.length > 255) {
    throw AppError.validation({ id: ['is required: the Stripe event id (`evt_…`)'] });
  }
  return { id, type: typeof type === 'string' ? type.slice(0, 255) : null };
};

export const receiveStripeWebhook = defineCommand<InboundCallbackInput, InboundEventOutcome>({
  name: 'receive_stripe_webhook',
  summary:
    'Stripe webhook (not for integrators): `checkout.session.completed` and `checkout.session.async_payment_succeeded|failed`, signed with `Stripe-Signature` (300 s tolerance). Each event id is processed once; a repeat answers `already_processed`.',
  input: 'InboundCallbackInput',
  output: 'InboundEventOutcome',
  callers: ['anonymous'],
  transactional: false,
  run(input, ctx) {
    const rawBody = Buffer.from(input.raw_body, 'base64');
    const secret = ctx.deps.config.stripeWebhookSecret ?? '';
    // Stripe's convention is 400 for a refused signature; checked here before the shared path checks it again.
    const check = input.signature?.trim().startsWith('t=')
      ? verifyInboundSignature(rawBody, input.signature, secret, ctx.clock.now())
      : { valid: false as const, reason: input.signature ? 'not a `t=…,v1=…` header' : 'no signature header' };
    if (!check.valid) {
      throw new AppError('STRIPE_SIGNATURE_INVALID', `The Stripe-Signature is refused: ${check.reason}.`, {
        retryable: false,
      });
    }
    return processInboundEvent(
      { provider: 'stripe', rawBody, signature: input.signature, secret, identify },
      fulfil,
      ctx.deps,
    );
  },
});
