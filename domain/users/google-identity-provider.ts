import type { ExternalIdentity, IdentityProvider } from './identity-provider.js';
import { IdentityProviderError } from './identity-provider.js';

export const GOOGLE_AUTHORIZATION_ENDPOINT = 'https://accounts.google.com/o/oauth2/v2/auth';
export const GOOGLE_TOKEN_ENDPOINT = 'https://oauth2.googleapis.com/token';
export const GOOGLE_USERINFO_ENDPOINT = 'https://openidconnect.googleapis.com/v1/userinfo';

export interface GoogleOptions {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** Per HTTP call; the sign-in waits for two calls at most. */
  timeoutMs?: number;
  /** The global fetch unless a test needs another (nock cannot abort a delayed reply). */
  fetch?: typeof fetch;
}

interface TokenResponse {
  access_token?: unknown;
}

interface UserInfo {
  sub?: unknown;
  email?: unknown;
  email_verified?: unknown;
  given_name?: unknown;
  family_name?: unknown;
  picture?: unknown;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * Google's OAuth 2.0 web-server flow with OpenID Connect (developers.google.com/identity/protocols/oauth2/web-server
 * and /openid-connect): authorization endpoint, code exchange at the token endpoint, then the
 * userinfo endpoint with the access token. A refused code is `rejected`; network errors, timeouts
 * and 5xx are `unavailable`.
 */
export class GoogleIdentityProvider implements IdentityProvider {
  readonly name = 'google';

  constructor(private readonly options: GoogleOptions) {}

  authorizationUrl(state: string): string {
    const url = new URL(GOOGLE_AUTHORIZATION_ENDPOINT);
    url.search = new URLSearchParams({
      client_id: this.options.clientId,
      redirect_uri: this.options.redirectUri,
      response_type: 'code',
      scope: 'openid email profile',
      access_type: 'online',
      prompt: 'select_account',
      state,
    }).toString();
    return url.toString();
  }

  async exchangeCode(code: string): Promise<ExternalIdentity> {
    const tokens = (await this.call(GOOGLE_TOKEN_ENDPOINT, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: new URLSearchParams({
        code,
        client_id: this.options.clientId,
        client_secret: this.options.clientSecret,
        redirect_uri: this.options.redirectUri,
        grant_type: 'authorization_code',
      }).toString(),
    })) as TokenResponse;
    const accessToken = text(tokens.access_token);
    if (!accessToken) throw new IdentityProviderError('rejected', 'Google returned no access token.');

    const info = (await this.call(GOOGLE_USERINFO_ENDPOINT, {
      headers: { Authorization: `Bearer ${accessToken}`, Accept: 'application/json' },
    })) as UserInfo;
    const subject = text(info.sub);
    const email = text(info.email).toLowerCase();
    if (!subject || !email) throw new IdentityProviderError('rejected', 'Google returned no account id or e-mail.');
    return {
      subject,
      email,
      emailVerified: info.email_verified === true || info.email_verified === 'true',
      firstName: text(info.given_name),
      lastName: text(info.family_name),
      avatarUrl: text(info.picture) || null,
    };
  }

  private async call(url: string, init: RequestInit): Promise<unknown> {
    let res: Response;
    try {
      const signal = AbortSignal.timeout(this.options.timeoutMs ?? 5000);
      res = await (this.options.fetch ?? fetch)(url, { ...init, redirect: 'error', signal });
    } catch (err) {
      throw new IdentityProviderError('unavailable', `Google could not be reached: ${(err as Error).message}`, {
        cause: err,
      });
    }
    const body = await res.json().catch(() => null);
    if (res.status >= 500 || res.status === 429) {
      throw new IdentityProviderError('unavailable', `Google answered HTTP ${res.status}.`);
    }
    if (!res.ok || !body || typeof body !== 'object') {
      const reason = text((body as { error?: unknown } | null)?.error) || `HTTP ${res.status}`;
      throw new IdentityProviderError('rejected', `Google refused the sign-in (${reason}).`);
    }
    return body;
  }
}
