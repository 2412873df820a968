import { AppError } from '../shared/app-error.js';
import type { Config } from '../shared/config.js';
import type { KycProvider } from './kyc-provider.js';
import { simulatedKycProvider } from './simulated-kyc-provider.js';

/**
 * Production has no KYC provider yet (no public contract is known: spec/provider-apis.md), and the
 * simulator approves everyone, so it runs only with ENABLE_SIMULATORS (spec/DECISIONS.md, "Providers"):
 * starting a verification answers 503 until an adapter is configured.
 */
const unconfiguredKycProvider: KycProvider = {
  async start() {
    throw new AppError(
      'PROVIDER_UNAVAILABLE',
      'No identity-verification provider is configured on this deployment, so KYC cannot start. Contact support.',
      { retryable: false },
    );
  },
  async check() {
    return { status: 'pending' };
  },
};

/**
 * The simulator only when asked for (ENABLE_SIMULATORS, which production refuses): a deployment
 * that forgot a setting must not approve every company.
 */
export const kycProviderFor = (config: Config): KycProvider =>
  config.enableSimulators ? simulatedKycProvider : unconfiguredKycProvider;
