import type { Knex } from 'knex';
import { AppError } from '../shared/app-error.js';
import type { Environment } from '../shared/caller.js';
import type { Clock } from '../shared/clock.js';
import type { Config } from '../shared/config.js';
import type { PaymentProvider, PaymentProviderKind, PaymentProviders } from './payment-provider.js';
import { SimulatedPaymentProvider } from './simulated-payment-provider.js';
import { StripePaymentProvider } from './stripe-payment-provider.js';

/**
 * Which payment provider an environment uses (DECISIONS.md "Providers"): sandbox always the
 * simulator; production Stripe when STRIPE_SECRET_KEY is set, else the simulator only when asked
 * for (ENABLE_SIMULATORS, which production refuses); null otherwise: top-ups are refused (503).
 */
export function paymentProviderKindFor(config: Config, environment: Environment): PaymentProviderKind | null {
  if (environment === 'sandbox') return 'simulator';
  if (config.stripeSecretKey) return 'stripe';
  return config.enableSimulators ? 'simulator' : null;
}

/** The port as the container gives it. */
export function paymentProvidersFor(config: Config, db: Knex, clock: Clock, baseUrl: () => string): PaymentProviders {
  const simulator = new SimulatedPaymentProvider(db, clock, baseUrl);
  const stripe = config.stripeSecretKey
    ? new StripePaymentProvider({
        baseUrl: config.stripeApiBase,
        secretKey: config.stripeSecretKey,
        timeoutMs: config.stripeTimeoutMs,
      })
    : null;
  const byKind = (kind: PaymentProviderKind): PaymentProvider => {
    if (kind === 'simulator') return simulator;
    if (stripe) return stripe;
    throw new AppError(
      'PROVIDER_UNAVAILABLE',
      'No payment provider is configured for production (STRIPE_SECRET_KEY).',
      {
        retryable: true,
      },
    );
  };
  return {
    byKind,
    for(environment) {
      const kind = paymentProviderKindFor(config, environment);
      return byKind(kind ?? 'stripe');
    },
  };
}
