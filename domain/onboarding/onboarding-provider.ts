import type { Knex } from 'knex';

/**
 * The onboarding provider port (provider-apis.md §1.2): the OAuth 2.1 authorization code flow with
 * PKCE (S256) through which a company opens its account at the e-invoicing provider and lets this
 * service act for it. Two implementations: SuperPDP over HTTP and the built-in simulator, whose
 * authorization page the service serves itself.
 */

/** What the token endpoint gave for a code: the connection's first tokens. */
export interface OAuthGrant {
  accessToken: string;
  refreshToken: string | null;
  /** Seconds the access token lives (SuperPDP: 30 minutes). */
  expiresIn: number;
}

/** The provider's verdict on the company behind a grant (`company_verification_status`). */
export type CompanyVerification = 'verified' | 'needs_review' | 'failed';

/** The company that went through the provider's tunnel, as far as the provider shows it yet. */
export interface ProviderCompany {
  verification: CompanyVerification;
  /** Known once verified (SuperPDP answers 403 on company routes while under review). */
  name: string | null;
  siret: string | null;
  email: string | null;
}

export interface AuthorizeRequest {
  state: string;
  codeChallenge: string;
  /** The company's e-mail, to prefill the provider's form (`login_hint`). */
  loginHint?: string | null;
}

export interface OnboardingProvider {
  readonly kind: 'superpdp' | 'simulator';
  /** The OAuth client of this service at the provider (stored on the new connection); null for the simulator. */
  readonly client: { id: string; secret: string } | null;
  /** The provider's authorization page for one session, with `state` and the PKCE challenge. */
  authorizeUrl(request: AuthorizeRequest): string;
  /**
   * Exchanges the code the provider redirected with, proving the PKCE verifier. A code the
   * provider refuses (400, 401) is ONBOARDING_STATE_INVALID; a provider down is PROVIDER_UNAVAILABLE.
   */
  exchangeCode(code: string, codeVerifier: string): Promise<OAuthGrant>;
  /** The company behind an access token and the provider's verdict on it (403 = still under review). */
  company(accessToken: string): Promise<ProviderCompany>;
  /** A usable access token of a connection this flow made (SuperPDP: renewed, the refresh token rotated under the row lock). */
  accessTokenOf(connection: ConnectionRef): Promise<string>;
}

export interface ConnectionRef {
  id: string;
  tenantId: string;
  environment: 'sandbox' | 'production';
}

export interface SimulatedAccount {
  redirectUri: string;
  codeChallenge: string;
  companyName: string;
  siret: string;
  email: string;
  /** "Under review" for this many seconds, then verified; 0 verifies at once. */
  reviewSeconds: number;
}

/** The simulator's side its authorization page drives (api/simulator/onboarding-simulator.router.ts). */
export interface SimulatorAccounts {
  readonly redirectUri: string;
  /** Creates the company's account and returns its code (once; stored as a hash). */
  createAccount(tx: Knex, account: SimulatedAccount): Promise<string>;
}

/** The providers by environment: sandbox always the simulator (DECISIONS.md "Providers"). */
export interface OnboardingProviders {
  /** The environment's provider, or PROVIDER_UNAVAILABLE (503) when none is configured. */
  forEnvironment(environment: 'sandbox' | 'production'): OnboardingProvider;
  /** The provider of a session already started (its `provider` column). */
  ofKind(kind: 'superpdp' | 'simulator'): OnboardingProvider;
  simulator: SimulatorAccounts;
}

declare module '../shared/deps.js' {
  interface Deps {
    /** Onboarding's OAuth providers (SuperPDP, the simulator). */
    onboardingProviders: OnboardingProviders;
  }
}
