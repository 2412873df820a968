import type { ConfirmTopUpInput, TopUp } from '../../../schemas/top-ups.js';
import { AppError, isAppError } from '../../shared/app-error.js';
import { execute } from '../../shared/execute.js';
import { defineCommand } from '../../shared/operation.js';
import { tenantWideCaller } from '../../tenants/index.js';
import type { PaymentIntent } from '../payment-provider.js';
import { findTopUpOperation } from './find-top-up.js';
import { settleTopUp } from './settle-top-up.js';

const notCompleted = (why: string) =>
  new AppError('PAYMENT_NOT_COMPLETED', `The top-up is not paid: ${why}.`, { retryable: false });

/**
 * POST /v1/tenant/billing/top-up/confirm. The top-up is found in the caller's tenant (by session,
 * or by PaymentIntent, asking the provider which top-up a PaymentIntent it has not seen pays),
 * the payment is checked with the provider outside any transaction, and the balance is credited
 * through `settle_top_up`, once: a top-up already credited (by an earlier confirm or the webhook)
 * answers as it is.
 */
export const confirmTopUp = defineCommand<ConfirmTopUpInput, TopUp>({
  name: 'confirm_top_up',
  summary:
    'Confirm a paid top-up by its PaymentIntent id (`pi_…`) or Checkout Session id (`cs_…`): the payment is checked with the provider and the balance credited once, whoever confirms first (the Stripe webhook does it too).',
  input: 'ConfirmTopUpInput',
  output: 'TopUp',
  callers: ['tenant'],
  transactional: false,
  async run(input, ctx) {
    const { tenantId, environment } = tenantWideCaller(ctx.caller, 'confirm_top_up');
    const ref = input.payment_intent_id;
    const find = (by: { payment_ref: string } | { top_up_id: string }) =>
      execute(findTopUpOperation, by, ctx.caller, ctx.deps);

    let intent: PaymentIntent | null = null;
    let topUp: TopUp;
    try {
      topUp = await find({ payment_ref: ref });
    } catch (err) {
      if (!isAppError(err) || err.code !== 'NOT_FOUND' || !ref.startsWith('pi_')) throw err;
      // A PaymentIntent we have not recorded yet: the provider says which top-up it pays.
      intent = await ctx.deps.paymentProviders.for(environment).retrievePaymentIntent(ref);
      const topUpId = intent?.metadata.topup_id;
      if (!intent || intent.metadata.tenant_id !== tenantId || !topUpId || !/^[0-9a-f-]{36}$/.test(topUpId)) {
        throw new AppError('NOT_FOUND', `No top-up of this account is paid by ${ref}.`);
      }
      topUp = await find({ top_up_id: topUpId });
    }
    if (topUp.status === 'succeeded') return topUp;
    if (topUp.status !== 'pending') throw notCompleted(`it is ${topUp.status}`);

    const provider = ctx.deps.paymentProviders.byKind(topUp.provider);
    let customerId: string | null = null;
    if (!intent) {
      let intentId = ref.startsWith('pi_') ? ref : null;
      if (!intentId) {
        const session = topUp.checkout_session_id
          ? await provider.retrieveCheckoutSession(topUp.checkout_session_id)
          : null;
        if (!session) throw new AppError('NOT_FOUND', `The payment provider knows no session ${ref}.`);
        if (session.paymentStatus !== 'paid' || !session.paymentIntentId) {
          throw notCompleted(`the checkout is ${session.status} and ${session.paymentStatus}`);
        }
        intentId = session.paymentIntentId;
        customerId = session.customerId;
      }
      intent = await provider.retrievePaymentIntent(intentId);
      if (!intent) throw new AppError('NOT_FOUND', `The payment provider knows no PaymentIntent ${intentId}.`);
    }
    if (intent.metadata.topup_id !== topUp.id) throw new AppError('NOT_FOUND', `${intent.id} pays another top-up.`);
    if (intent.status !== 'succeeded') throw notCompleted(`the payment is ${intent.status}`);
    return execute(
      settleTopUp,
      {
        top_up_id: topUp.id,
        outcome: 'succeeded',
        payment_intent_id: intent.id,
        amount_received: intent.amountReceived,
        currency: intent.currency,
        ...((intent.customerId ?? customerId) ? { customer_id: (intent.customerId ?? customerId)! } : {}),
        ...(intent.paymentMethodId ? { payment_method_id: intent.paymentMethodId } : {}),
      },
      ctx.caller,
      ctx.deps,
    );
  },
});
