/** Every operation of the onboarding context: its routes, pages and job handlers import them from here. */

export { authorizeOnboarding, authorizeTenantOnboarding, resumeOnboarding } from './authorize-onboarding.js';
export { createOnboardingSession, createTenantOnboardingSession } from './create-onboarding-session.js';
export {
  exchangeOnboardingCode,
  exchangeTenantOnboardingCode,
  redeemOnboardingCode,
  redeemTenantOnboardingCode,
} from './exchange-onboarding-code.js';
export { getOnboardingSession, getTenantOnboardingSession } from './get-onboarding-session.js';
export {
  claimPartnerOnboardingState,
  claimTenantOnboardingState,
  completePartnerOnboarding,
  completeTenantOnboarding,
  failOnboardingSession,
  finishOnboarding,
  finishTenantOnboarding,
} from './onboarding-callback.js';
export { getOnboardingReview, recordOnboardingReview } from './onboarding-review.js';
export { decideOnboardingSimulator, getOnboardingSimulator } from './onboarding-simulator.js';
export { openOnboardingRedirect } from './open-onboarding-redirect.js';
