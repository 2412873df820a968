import type { TopUp, TopUpIdInput } from '../../../schemas/top-ups.js';
import { execute } from '../../shared/execute.js';
import { defineCommand } from '../../shared/operation.js';
import { PRICE_CURRENCY } from '../pricing.js';
import { centsOf } from '../top-up-store.js';
import { prepareAutoReload } from './prepare-auto-reload.js';
import { settleTopUp } from './settle-top-up.js';

/**
 * The `auto-reload-balance` job: charges a pending auto-reload off-session on the saved card
 * (Stripe PaymentIntent `off_session=true, confirm=true`), outside any transaction, with the
 * top-up's id as the Idempotency-Key (a retried job never charges twice), then credits it through
 * `settle_top_up`, or records the failure, which sends `balance.auto_reload_failed` and a mail.
 * An unreachable provider throws PROVIDER_UNAVAILABLE: the job is retried.
 */
export const runAutoReload = defineCommand<TopUpIdInput, TopUp>({
  name: 'run_auto_reload',
  summary: 'Charge a pending auto-reload on the saved card and credit the balance, or report why it failed.',
  input: 'TopUpIdInput',
  output: 'TopUp',
  callers: ['system'],
  transactional: false,
  async run(input, ctx) {
    const charge = await execute(prepareAutoReload, input, ctx.caller, ctx.deps);
    const { top_up: topUp } = charge;
    if (topUp.status !== 'pending') return topUp;
    const fail = (reason: string) =>
      execute(settleTopUp, { top_up_id: topUp.id, outcome: 'failed', failure_reason: reason }, ctx.caller, ctx.deps);
    if (!charge.provider || !charge.customer_id) {
      return fail('no saved card: pay one top-up by checkout first, its card is kept for auto-reloads');
    }
    const provider = ctx.deps.paymentProviders.byKind(charge.provider);
    const paymentMethodId =
      charge.payment_method_id ??
      (charge.source_payment_intent_id
        ? (await provider.retrievePaymentIntent(charge.source_payment_intent_id))?.paymentMethodId
        : null);
    if (!paymentMethodId) return fail('the saved card is no longer known to the payment provider');
    const intent = await provider.chargeOffSession({
      topUpId: topUp.id,
      tenantId: ctx.caller.tenantId!,
      amountCents: centsOf(topUp.amount.toFixed(2)),
      currency: PRICE_CURRENCY.toLowerCase(),
      customerId: charge.customer_id,
      paymentMethodId,
      idempotencyKey: `auto-reload-${topUp.id}`,
    });
    if (intent.status !== 'succeeded') {
      return fail(intent.lastError ?? `the payment is ${intent.status}`);
    }
    return execute(
      settleTopUp,
      {
        top_up_id: topUp.id,
        outcome: 'succeeded',
        payment_intent_id: intent.id,
        amount_received: intent.amountReceived,
        currency: intent.currency,
      },
      ctx.caller,
      ctx.deps,
    );
  },
});
