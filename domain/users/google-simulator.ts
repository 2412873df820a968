import { createHash } from 'node:crypto';
import { signToken, verifyToken } from '../auth/index.js';
import type { Clock } from '../shared/clock.js';
import type { ExternalIdentity, IdentityProvider } from './identity-provider.js';
import { IdentityProviderError } from './identity-provider.js';

/** A simulator code is good for 2 minutes: long enough to come back from the page, no more. */
export const SIMULATOR_CODE_TTL_SECONDS = 120;
const CODE_PURPOSE = 'google-simulator-code';

const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

export interface GoogleSimulatorOptions {
  appKey: Buffer | null;
  /** The service's external URL: the simulator's page is served by the web process itself. */
  baseUrl: string;
  redirectUri: string;
  clock: Clock;
}

/**
 * A stand-in for Google when it is not configured (only with ENABLE_SIMULATORS): its page
 * (`GET /simulator/google/authorize`, api/simulator/) asks for an e-mail and redirects back with a
 * code. The code is a signed, short-lived token carrying that e-mail and bound to the state, so any
 * web process can check it without a table. The Google account id is derived from the e-mail.
 */
export class GoogleSimulator implements IdentityProvider {
  readonly name = 'google-simulator';

  constructor(readonly options: GoogleSimulatorOptions) {}

  get redirectUri(): string {
    return this.options.redirectUri;
  }

  authorizationUrl(state: string): string {
    const url = new URL(`${this.options.baseUrl}/simulator/google/authorize`);
    url.search = new URLSearchParams({
      client_id: 'simulator',
      redirect_uri: this.options.redirectUri,
      response_type: 'code',
      scope: 'openid email profile',
      state,
    }).toString();
    return url.toString();
  }

  /** What the simulator's page hands back to the redirect URI for the e-mail typed in. */
  issueCode(email: string, state: string): string {
    return signToken(
      this.signing(),
      { email: email.trim().toLowerCase(), state: sha256(state) },
      SIMULATOR_CODE_TTL_SECONDS,
    );
  }

  async exchangeCode(code: string, state: string): Promise<ExternalIdentity> {
    const claims = verifyToken<{ email: string; state: string }>(this.signing(), code);
    if (!claims || typeof claims.email !== 'string' || claims.state !== sha256(state)) {
      throw new IdentityProviderError('rejected', 'The simulator code is invalid or expired.');
    }
    const local = claims.email.split('@')[0] ?? '';
    return {
      subject: `simulator-${sha256(claims.email).slice(0, 32)}`,
      email: claims.email,
      emailVerified: true,
      firstName: local,
      lastName: '',
      avatarUrl: null,
    };
  }

  private signing() {
    return { key: this.options.appKey, purpose: CODE_PURPOSE, now: this.options.clock.now() };
  }
}
