/**
 * Public surface of the companies context for code outside it: what other contexts, api/ and workers/ use.
 * Its operations are exported from ./operations/index.ts.
 */

export { frenchVatKey } from './company.js';
export { isCountryCode, isEuMember } from './countries.js';
export {
  type KycOutcome,
  type KycProvider,
  type KycSession,
  type KycSubject,
  providerUnavailable,
} from './kyc-provider.js';
export { kycProviderFor } from './kyc-providers.js';
export { KYC_REJECTED_TEST_SIRET, simulatedKycProvider } from './simulated-kyc-provider.js';
