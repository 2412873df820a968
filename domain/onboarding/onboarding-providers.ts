import type { Knex } from 'knex';
import { AppError } from '../shared/app-error.js';
import type { Environment } from '../shared/caller.js';
import type { Clock } from '../shared/clock.js';
import type { Config } from '../shared/config.js';
import { providerKindFor, SuperPdpTokens } from '../transmission/index.js';
import { publicBaseUrlOf } from '../users/index.js';
import type { OnboardingProvider, OnboardingProviders } from './onboarding-provider.js';
import { SimulatedOnboarding } from './simulated-onboarding.js';
import { SuperPdpOnboarding } from './superpdp-onboarding.js';

/** The callback page's address: as registered at SuperPDP, else under PUBLIC_BASE_URL. */
export const onboardingRedirectUri = (config: Config): string =>
  config.superpdpRedirectUri ?? `${publicBaseUrlOf(config)}/api/v1/onboarding/superpdp/callback`;

/**
 * Which provider onboards an environment, as for e-invoicing (DECISIONS.md "Providers"): sandbox
 * always the simulator; production SuperPDP when its API and OAuth app are configured, else the
 * simulator only with ENABLE_SIMULATORS (refused in production); otherwise 503.
 */
export function onboardingProvidersFor(config: Config, db: Knex, clock: Clock): OnboardingProviders {
  const simulator = new SimulatedOnboarding(
    db,
    clock,
    publicBaseUrlOf(config),
    onboardingRedirectUri(config),
    config.appKey,
  );
  const superpdp =
    config.superpdpBaseUrl && config.superpdpClientId && config.superpdpClientSecret && config.appKey
      ? new SuperPdpOnboarding(
          {
            baseUrl: config.superpdpBaseUrl,
            clientId: config.superpdpClientId,
            clientSecret: config.superpdpClientSecret,
            redirectUri: onboardingRedirectUri(config),
            timeoutMs: config.superpdpTimeoutMs,
          },
          new SuperPdpTokens({
            baseUrl: config.superpdpBaseUrl,
            timeoutMs: config.superpdpTimeoutMs,
            appKey: config.appKey,
            db,
            clock,
          }),
        )
      : null;
  const unavailable = () =>
    new AppError(
      'PROVIDER_UNAVAILABLE',
      'Production onboarding needs the SuperPDP OAuth app (SUPERPDP_BASE_URL, SUPERPDP_CLIENT_ID, SUPERPDP_CLIENT_SECRET).',
      { retryable: true },
    );
  const ofKind = (kind: 'superpdp' | 'simulator'): OnboardingProvider => {
    if (kind === 'simulator') return simulator;
    if (superpdp) return superpdp;
    throw unavailable();
  };
  return {
    simulator,
    ofKind,
    forEnvironment(environment: Environment) {
      const kind = providerKindFor(config, environment);
      if (kind === 'simulator') return simulator;
      // SUPERPDP_BASE_URL without the OAuth app: production cannot onboard.
      if (kind === 'superpdp' && superpdp) return superpdp;
      throw unavailable();
    },
  };
}
