/** A person as an external identity provider vouches for them (OpenID Connect standard claims). */
export interface ExternalIdentity {
  /** The provider's stable id for the account (`sub`); stored as `users.google_id`. */
  subject: string;
  email: string;
  emailVerified: boolean;
  firstName: string;
  lastName: string;
  avatarUrl: string | null;
}

/** Why a sign-in with the provider failed; every reason answers 401 to the browser. */
export type IdentityFailure = 'rejected' | 'unavailable' | 'not_configured';

export class IdentityProviderError extends Error {
  override readonly name = 'IdentityProviderError';
  constructor(
    readonly reason: IdentityFailure,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, options);
  }
}

/**
 * "Sign in with Google" (OAuth 2.0 authorization code flow, OpenID Connect userinfo). Two
 * implementations: the real Google adapter, and a built-in simulator for setups without Google
 * credentials (only with ENABLE_SIMULATORS, which production refuses).
 */
export interface IdentityProvider {
  readonly name: 'google' | 'google-simulator' | 'none';
  /** The provider page to send the browser to; it comes back to the redirect URI with `code` and `state`. */
  authorizationUrl(state: string): string;
  /** Exchanges the code for the person's identity, or throws IdentityProviderError. */
  exchangeCode(code: string, state: string): Promise<ExternalIdentity>;
}

/** Production without GOOGLE_CLIENT_ID: Google sign-in is off (the simulator is refused there). */
export class UnconfiguredIdentityProvider implements IdentityProvider {
  readonly name = 'none';

  authorizationUrl(): string {
    throw new IdentityProviderError(
      'not_configured',
      'Google sign-in is not configured on this server (GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET).',
    );
  }

  async exchangeCode(): Promise<ExternalIdentity> {
    throw new IdentityProviderError('not_configured', 'Google sign-in is not configured on this server.');
  }
}

declare module '../shared/deps.js' {
  interface Deps {
    /** "Sign in with Google" (Google itself, or the simulator with ENABLE_SIMULATORS). */
    identityProvider: IdentityProvider;
  }
}
