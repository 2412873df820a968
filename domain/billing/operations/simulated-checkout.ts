import type {
  CompleteSimulatedCheckoutInput,
  SimulatedCheckout,
  SimulatedCheckoutInput,
  SimulatedCheckoutOutcome,
} from '../../../schemas/top-ups.js';
import { AppError } from '../../shared/app-error.js';
import { systemCaller } from '../../shared/caller.js';
import type { Deps } from '../../shared/deps.js';
import { execute } from '../../shared/execute.js';
import { defineCommand, defineQuery } from '../../shared/operation.js';
import { moneyToJson } from '../money.js';
import { SimulatedPaymentProvider } from '../simulated-payment-provider.js';
import { settleTopUp } from './settle-top-up.js';

const unknownSession = (id: string) => new AppError('NOT_FOUND', `No checkout session ${id}.`);

function simulatorOf(deps: Deps): SimulatedPaymentProvider {
  const simulator = deps.paymentProviders.byKind('simulator');
  if (!(simulator instanceof SimulatedPaymentProvider)) throw new AppError('NOT_FOUND', 'No payment simulator.');
  return simulator;
}

/** What the simulator's checkout page shows; the session id in the address is the permission. */
export const getSimulatedCheckout = defineQuery<SimulatedCheckoutInput, SimulatedCheckout>({
  name: 'get_simulated_checkout',
  summary: 'The payment simulator’s checkout session, as its page shows it.',
  input: 'SimulatedCheckoutInput',
  output: 'SimulatedCheckout',
  callers: ['anonymous'],
  transactional: false,
  async run(input, ctx) {
    const session = await simulatorOf(ctx.deps).retrieveCheckoutSession(input.session_id);
    if (!session) throw unknownSession(input.session_id);
    return {
      session_id: session.id,
      amount: moneyToJson((session.amountTotal / 100).toFixed(2)),
      currency: session.currency.toUpperCase(),
      status: session.status,
      payment_status: session.paymentStatus === 'paid' ? 'paid' : 'unpaid',
    };
  },
});

/**
 * The payer's answer on the simulator's page. Pay: the simulator records the payment with the test
 * card, then plays Stripe's `checkout.session.completed` webhook: the top-up is credited through
 * `settle_top_up`, the same path as the confirm route. Cancel: back to the cancel URL, the session
 * stays open and nothing is credited.
 */
export const completeSimulatedCheckout = defineCommand<CompleteSimulatedCheckoutInput, SimulatedCheckoutOutcome>({
  name: 'complete_simulated_checkout',
  summary: 'Pay or cancel a checkout session on the payment simulator’s page.',
  input: 'CompleteSimulatedCheckoutInput',
  output: 'SimulatedCheckoutOutcome',
  callers: ['anonymous'],
  transactional: false,
  async run(input, ctx) {
    const simulator = simulatorOf(ctx.deps);
    if (input.action === 'cancel') {
      const url = await simulator.cancelUrl(input.session_id);
      if (!url) throw unknownSession(input.session_id);
      return { redirect_url: url };
    }
    const paid = await simulator.pay(input.session_id, input.card ?? '4242424242424242');
    if (!paid) throw unknownSession(input.session_id);
    const { session, tenantId } = paid;
    const intent = session.paymentIntentId ? await simulator.retrievePaymentIntent(session.paymentIntentId) : null;
    const topUpId = session.metadata.topup_id;
    if (intent?.status === 'succeeded' && topUpId) {
      await execute(
        settleTopUp,
        {
          top_up_id: topUpId,
          outcome: 'succeeded',
          payment_intent_id: intent.id,
          amount_received: intent.amountReceived,
          currency: intent.currency,
          ...(intent.customerId ? { customer_id: intent.customerId } : {}),
          ...(intent.paymentMethodId ? { payment_method_id: intent.paymentMethodId } : {}),
        },
        systemCaller(tenantId),
        ctx.deps,
      );
    }
    const url = await simulator.successUrl(input.session_id);
    return { redirect_url: url! };
  },
});
