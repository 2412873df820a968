import type { CreateTopUpInput, TopUpCheckout } from '../../../schemas/top-ups.js';
import { AppError } from '../../shared/app-error.js';
import type { Config } from '../../shared/config.js';
import { execute } from '../../shared/execute.js';
import { defineCommand } from '../../shared/operation.js';
import { tenantWideCaller } from '../../tenants/index.js';
import { publicBaseUrlOf } from '../../users/index.js';
import { hasAtMostTwoDecimals, moneyToJson, toMoney } from '../money.js';
import { PRICE_CURRENCY } from '../pricing.js';
import { attachCheckoutSession } from './attach-checkout-session.js';
import { recordTopUp } from './record-top-up.js';

/** Where the checkout sends the browser back; Stripe fills in `{CHECKOUT_SESSION_ID}`. */
function returnUrls(config: Config): { successUrl: string; cancelUrl: string } {
  const base = config.topUpReturnUrl ?? `${publicBaseUrlOf(config)}/checkout/return`;
  const join = base.includes('?') ? '&' : '?';
  return {
    successUrl: `${base}${join}status=success&session_id={CHECKOUT_SESSION_ID}`,
    cancelUrl: `${base}${join}status=cancel&session_id={CHECKOUT_SESSION_ID}`,
  };
}

/**
 * POST /v1/tenant/billing/top-up. The pending top-up is written first, then the provider opens
 * its Checkout Session outside any transaction (the top-up's id is the Idempotency-Key), then the
 * session is recorded. A provider that fails leaves the top-up cancelled and answers 503.
 */
export const createTopUp = defineCommand<CreateTopUpInput, TopUpCheckout>({
  name: 'create_top_up',
  summary:
    'Start a top-up of the prepaid balance (at least 10 EUR): answers the checkout page to pay it by card (Stripe Checkout; the payment simulator’s page with a sandbox key). The balance is credited once the payment is confirmed.',
  input: 'CreateTopUpInput',
  output: 'TopUpCheckout',
  callers: ['tenant'],
  transactional: false,
  async run(input, ctx) {
    const { tenantId, environment } = tenantWideCaller(ctx.caller, 'create_top_up');
    const amount = toMoney(input.amount);
    if (!hasAtMostTwoDecimals(amount)) throw AppError.validation({ amount: ['must have at most 2 decimals'] });
    const provider = ctx.deps.paymentProviders.for(environment);
    const topUp = await execute(recordTopUp, { amount: input.amount, provider: provider.kind }, ctx.caller, ctx.deps);
    let session: Awaited<ReturnType<typeof provider.createCheckoutSession>>;
    try {
      session = await provider.createCheckoutSession({
        topUpId: topUp.id,
        tenantId,
        environment,
        amountCents: Number(amount.times(100).toFixed(0)),
        currency: PRICE_CURRENCY.toLowerCase(),
        ...returnUrls(ctx.deps.config),
        customerId: null,
        idempotencyKey: `top-up-${topUp.id}`,
      });
    } catch (err) {
      await execute(attachCheckoutSession, { top_up_id: topUp.id, checkout_session_id: null }, ctx.caller, ctx.deps);
      throw err;
    }
    if (!session.url) {
      // cancelled like a failed call: no pending top-up is left without a checkout
      await execute(attachCheckoutSession, { top_up_id: topUp.id, checkout_session_id: null }, ctx.caller, ctx.deps);
      throw new AppError('PROVIDER_UNAVAILABLE', 'The payment provider opened no checkout page. Retry later.');
    }
    await execute(
      attachCheckoutSession,
      { top_up_id: topUp.id, checkout_session_id: session.id },
      ctx.caller,
      ctx.deps,
    );
    return {
      checkout_url: session.url,
      amount: moneyToJson(amount),
      currency: PRICE_CURRENCY,
      top_up_id: topUp.id,
      session_id: session.id,
    };
  },
});
