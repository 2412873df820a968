import type { Environment } from '../shared/caller.js';

/**
 * The payment provider port (spec/DECISIONS.md "Providers", provider-apis.md §3): Stripe's HTTP
 * adapter and the built-in payment simulator implement it. Calls are never made inside a
 * transaction. A declined card is a result; a provider that cannot be reached (network, 5xx, 429
 * after retries, a refused key) throws AppError('PROVIDER_UNAVAILABLE') with `retryable: true`.
 */

export type PaymentProviderKind = 'stripe' | 'simulator';

/** A Checkout Session to open for a top-up. */
export interface CheckoutRequest {
  topUpId: string;
  tenantId: string;
  environment: Environment;
  amountCents: number;
  /** Lower case, as Stripe writes it (`eur`). */
  currency: string;
  /** `{CHECKOUT_SESSION_ID}` is replaced by the provider. */
  successUrl: string;
  cancelUrl: string;
  /** The customer saved by an earlier checkout, reused so its cards stay together. */
  customerId: string | null;
  /** Sent as `Idempotency-Key`: the same request twice opens one session. */
  idempotencyKey: string;
}

/** A Checkout Session as the provider reports it (the fields we read). */
export interface CheckoutSession {
  id: string;
  url: string | null;
  status: 'open' | 'complete' | 'expired';
  paymentStatus: 'paid' | 'unpaid' | 'no_payment_required';
  amountTotal: number;
  currency: string;
  /** Null until the payer confirms (API 2022-08-01 and later). */
  paymentIntentId: string | null;
  customerId: string | null;
  metadata: Record<string, string>;
}

/** A PaymentIntent as the provider reports it (the fields we read). */
export interface PaymentIntent {
  id: string;
  status:
    | 'requires_payment_method'
    | 'requires_confirmation'
    | 'requires_action'
    | 'processing'
    | 'requires_capture'
    | 'canceled'
    | 'succeeded';
  amount: number;
  amountReceived: number;
  currency: string;
  customerId: string | null;
  paymentMethodId: string | null;
  metadata: Record<string, string>;
  /** Why the last attempt failed (a declined card), when it did. */
  lastError: string | null;
}

/** An off-session charge of a saved card (an auto-reload). */
export interface OffSessionCharge {
  topUpId: string;
  tenantId: string;
  amountCents: number;
  currency: string;
  customerId: string;
  paymentMethodId: string;
  idempotencyKey: string;
}

export interface PaymentProvider {
  readonly kind: PaymentProviderKind;
  createCheckoutSession(request: CheckoutRequest): Promise<CheckoutSession>;
  /** Null: the provider knows no such session. */
  retrieveCheckoutSession(id: string): Promise<CheckoutSession | null>;
  /** Null: the provider knows no such PaymentIntent. */
  retrievePaymentIntent(id: string): Promise<PaymentIntent | null>;
  /** `off_session=true, confirm=true`: a declined card answers a PaymentIntent with `lastError`, not a throw. */
  chargeOffSession(charge: OffSessionCharge): Promise<PaymentIntent>;
}

/** Which provider serves each environment, as the container gives them. */
export interface PaymentProviders {
  /** The provider of new top-ups in this environment; throws PROVIDER_UNAVAILABLE when none is configured. */
  for(environment: Environment): PaymentProvider;
  /** The provider that took a recorded payment. */
  byKind(kind: PaymentProviderKind): PaymentProvider;
}

declare module '../shared/deps.js' {
  interface Deps {
    /** Top-ups and auto-reloads: Stripe in production when configured, the simulator otherwise. */
    paymentProviders: PaymentProviders;
  }
}
