import type { Knex } from 'knex';
import { AppError } from '../shared/app-error.js';
import type { Environment } from '../shared/caller.js';
import type { Clock } from '../shared/clock.js';
import type { Config } from '../shared/config.js';
import type { EInvoicingProvider, ProviderAccountRef } from './einvoicing-provider.js';
import type { ProviderKind } from './provider-connection-store.js';
import { SimulatedProvider } from './simulated-provider.js';
import { SuperPdpProvider } from './superpdp-provider.js';
import { SuperPdpTokens } from './superpdp-tokens.js';

/**
 * Which provider an environment uses (DECISIONS.md "Providers"): sandbox always the simulator;
 * production SuperPDP when SUPERPDP_BASE_URL is set, else the simulator only when asked for
 * (ENABLE_SIMULATORS, which production refuses); null otherwise: submissions wait for a provider.
 */
export function providerKindFor(config: Config, environment: Environment): ProviderKind | null {
  if (environment === 'sandbox') return 'simulator';
  if (config.superpdpBaseUrl) return 'superpdp';
  return config.enableSimulators ? 'simulator' : null;
}

/** The port as the container gives it: each call goes to the provider of the account's environment. */
export function einvoicingProviderFor(config: Config, db: Knex, clock: Clock): EInvoicingProvider {
  const simulator = new SimulatedProvider(db, clock, config.simulatorStepSeconds);
  const superpdp =
    config.superpdpBaseUrl && config.appKey
      ? new SuperPdpProvider(
          { baseUrl: config.superpdpBaseUrl, timeoutMs: config.superpdpTimeoutMs },
          new SuperPdpTokens({
            baseUrl: config.superpdpBaseUrl,
            timeoutMs: config.superpdpTimeoutMs,
            appKey: config.appKey,
            db,
            clock,
          }),
        )
      : null;
  const pick = (account: ProviderAccountRef): EInvoicingProvider => {
    const kind = providerKindFor(config, account.environment);
    if (kind === 'simulator') return simulator;
    if (kind === 'superpdp' && superpdp) return superpdp;
    throw new AppError(
      'PROVIDER_UNAVAILABLE',
      'No e-invoicing provider is configured for production (SUPERPDP_BASE_URL).',
      {
        retryable: true,
      },
    );
  };
  return {
    upload: (account, request) => pick(account).upload(account, request),
    findUploaded: (account, externalId) => pick(account).findUploaded(account, externalId),
    listEvents: (account, afterId, limit) => pick(account).listEvents(account, afterId, limit),
    listIncoming: (account, afterId, limit) => pick(account).listIncoming(account, afterId, limit),
    downloadOriginal: (account, pdpId) => pick(account).downloadOriginal(account, pdpId),
    sendStatus: (account, status) => pick(account).sendStatus(account, status),
  };
}
