import { AppError } from '../shared/app-error.js';
import { errorMessageOf, fetchWithTimeout, providerUnavailable, type SuperPdpTokens } from '../transmission/index.js';
import type {
  AuthorizeRequest,
  ConnectionRef,
  OAuthGrant,
  OnboardingProvider,
  ProviderCompany,
} from './onboarding-provider.js';

export interface SuperPdpOnboardingSettings {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  timeoutMs: number;
}

type Verification = 'verified' | 'needs_review' | 'failed';

/**
 * SuperPDP's OAuth 2.1 code flow (provider-apis.md §1.2): the authorize URL with `state` and PKCE
 * S256, the code exchange at `/oauth2/token` (client secret in the form, `code_verifier`), and the
 * KYB gate: `GET /v1.beta/oauth2_sessions/me` gives the company's verification status, and company
 * routes answer 403 until SuperPDP has verified it. Later tokens (refresh rotation under the row
 * lock) are the transmission context's SuperPdpTokens, on the connection this flow creates.
 */
export class SuperPdpOnboarding implements OnboardingProvider {
  readonly kind = 'superpdp' as const;
  readonly client: { id: string; secret: string };

  constructor(
    private readonly s: SuperPdpOnboardingSettings,
    private readonly tokens: SuperPdpTokens,
  ) {
    this.client = { id: s.clientId, secret: s.clientSecret };
  }

  accessTokenOf(connection: ConnectionRef): Promise<string> {
    return this.tokens.accessToken(connection);
  }

  authorizeUrl(request: AuthorizeRequest): string {
    const url = new URL(`${this.s.baseUrl}/oauth2/authorize`);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', this.s.clientId);
    url.searchParams.set('redirect_uri', this.s.redirectUri);
    url.searchParams.set('state', request.state);
    url.searchParams.set('code_challenge', request.codeChallenge);
    url.searchParams.set('code_challenge_method', 'S256');
    if (request.loginHint) url.searchParams.set('login_hint', request.loginHint);
    return url.toString();
  }

  async exchangeCode(code: string, codeVerifier: string): Promise<OAuthGrant> {
    const res = await fetchWithTimeout(
      `${this.s.baseUrl}/oauth2/token`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: this.s.redirectUri,
          client_id: this.s.clientId,
          client_secret: this.s.clientSecret,
          code_verifier: codeVerifier,
        }).toString(),
      },
      this.s.timeoutMs,
    );
    if (res.status === 400 || res.status === 401) {
      // invalid_grant (a used, expired or forged code, a wrong verifier) or invalid_client.
      throw new AppError(
        'ONBOARDING_STATE_INVALID',
        `SuperPDP refused the authorization code (${res.status}: ${await errorMessageOf(res)}); start the onboarding again.`,
      );
    }
    if (!res.ok)
      throw providerUnavailable(`SuperPDP's token endpoint answered ${res.status}: ${await errorMessageOf(res)}`);
    const body = (await res.json()) as { access_token?: string; refresh_token?: string; expires_in?: number };
    if (!body.access_token) throw providerUnavailable('SuperPDP returned no access_token.');
    return {
      accessToken: body.access_token,
      refreshToken: body.refresh_token ?? null,
      expiresIn: body.expires_in ?? 1800,
    };
  }

  async company(accessToken: string): Promise<ProviderCompany> {
    const session = await this.get('/v1.beta/oauth2_sessions/me', accessToken);
    if (session.status === 403) return { verification: 'needs_review', name: null, siret: null, email: null };
    const status = ((await session.json()) as { company_verification_status?: Verification })
      .company_verification_status;
    if (status !== 'verified') {
      return { verification: status === 'failed' ? 'failed' : 'needs_review', name: null, siret: null, email: null };
    }
    const res = await this.get('/v1.beta/companies/me', accessToken);
    if (res.status === 403) return { verification: 'needs_review', name: null, siret: null, email: null };
    const company = (await res.json()) as { formal_name?: string; trade_name?: string; number?: string };
    return {
      verification: 'verified',
      name: company.formal_name ?? company.trade_name ?? null,
      // SuperPDP knows the SIREN (9 digits); a SIRET (14) only when it gives one.
      siret: company.number && /^[0-9]{14}$/.test(company.number) ? company.number : null,
      email: null,
    };
  }

  /** A GET with the company's token: 401 is a refused token, 5xx and 429 the provider down; 403 is returned. */
  private async get(path: string, accessToken: string): Promise<Response> {
    const res = await fetchWithTimeout(
      `${this.s.baseUrl}${path}`,
      { headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' } },
      this.s.timeoutMs,
    );
    if (res.status === 401) {
      throw new AppError(
        'ONBOARDING_STATE_INVALID',
        `SuperPDP refused the new access token (401: ${await errorMessageOf(res)}); start the onboarding again.`,
      );
    }
    if (res.status === 429 || res.status >= 500) {
      throw providerUnavailable(`SuperPDP answered ${res.status} to ${path}: ${await errorMessageOf(res)}`);
    }
    if (!res.ok && res.status !== 403) {
      throw providerUnavailable(`SuperPDP answered ${res.status} to ${path}: ${await errorMessageOf(res)}`);
    }
    return res;
  }
}
