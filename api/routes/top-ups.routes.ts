import { confirmTopUp, createTopUp, receiveStripeWebhook } from '../../domain/billing/operations/index.js';
import type { RouteSpec } from '../http/route-spec.js';

const TAG = 'Tenant billing';

/** Spec "Tenant billing [TenantKey]": the top-up and its confirmation. */
export const topUpRoutes: RouteSpec[] = [
  {
    method: 'post',
    path: '/api/v1/tenant/billing/top-up',
    operation: createTopUp,
    tag: TAG,
    auth: ['tenant_key'],
    status: 201,
    message: 'Checkout created: send the payer to checkout_url.',
    // 503: the payment provider is down or not configured.
    errors: [503],
  },
  {
    method: 'post',
    path: '/api/v1/tenant/billing/top-up/confirm',
    operation: confirmTopUp,
    tag: TAG,
    auth: ['tenant_key'],
    message: 'Top-up confirmed.',
    // 409: not paid (yet), or paid for another amount; 503: the payment provider is down.
    errors: [409, 503],
  },
];

const stripeCallback = (path: string): RouteSpec => ({
  method: 'post',
  path,
  tag: 'Inbound provider callbacks',
  auth: ['none'],
  operation: receiveStripeWebhook,
  envelope: 'raw',
  rateLimit: 'none',
  rawBody: { signatureHeader: 'Stripe-Signature' },
  // 409: a paid session whose amount is not the top-up's (Stripe retries).
  errors: [409],
});

/** Stripe's webhook endpoint, at the root and under /api (DECISIONS.md "Routes"). */
export const stripeCallbackRoutes: RouteSpec[] = ['/webhooks/stripe', '/api/webhooks/stripe'].map(stripeCallback);
