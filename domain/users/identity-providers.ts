import type { Clock } from '../shared/clock.js';
import type { Config } from '../shared/config.js';
import { GoogleIdentityProvider } from './google-identity-provider.js';
import { GoogleSimulator } from './google-simulator.js';
import { type IdentityProvider, UnconfiguredIdentityProvider } from './identity-provider.js';
import { publicBaseUrlOf } from './public-url.js';

export type { IdentityProvider } from './identity-provider.js';

/**
 * Google when GOOGLE_CLIENT_ID/SECRET are set; else the simulator, only when asked for
 * (ENABLE_SIMULATORS, which production refuses): it signs anyone in with any e-mail.
 */
export function identityProviderFor(config: Config, clock: Clock): IdentityProvider {
  const redirectUri = config.googleRedirectUri ?? `${publicBaseUrlOf(config)}/api/v1/auth/google/callback`;
  if (config.googleClientId && config.googleClientSecret) {
    return new GoogleIdentityProvider({
      clientId: config.googleClientId,
      clientSecret: config.googleClientSecret,
      redirectUri,
    });
  }
  if (!config.enableSimulators) return new UnconfiguredIdentityProvider();
  return new GoogleSimulator({ appKey: config.appKey, baseUrl: publicBaseUrlOf(config), redirectUri, clock });
}
