import type { Deps } from '../shared/deps.js';

/** APP_KEY seals the PKCE verifiers and the new connections' tokens. */
export function appKeyOf(deps: Deps): Buffer {
  if (!deps.config.appKey) throw new Error('APP_KEY is not set: onboarding cannot seal its secrets');
  return deps.config.appKey;
}
