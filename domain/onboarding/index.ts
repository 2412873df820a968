/**
 * Public surface of the onboarding context for code outside it: what other contexts, api/ and workers/ use.
 * Its operations are exported from ./operations/index.ts.
 */

export type { OnboardingProvider, OnboardingProviders } from './onboarding-provider.js';
export { onboardingProvidersFor, onboardingRedirectUri } from './onboarding-providers.js';
