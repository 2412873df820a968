import type { Knex } from 'knex';
import { AppError } from '../shared/app-error.js';
import { systemCaller } from '../shared/caller.js';
import type { Clock } from '../shared/clock.js';
import { inTenantContext } from '../shared/tenant-context.js';
import { openStoredAccessToken } from '../transmission/index.js';
import type {
  AuthorizeRequest,
  ConnectionRef,
  OAuthGrant,
  OnboardingProvider,
  ProviderCompany,
  SimulatedAccount,
  SimulatorAccounts,
} from './onboarding-provider.js';
import { codeChallengeOf, randomSecret, sha256Hex } from './pkce.js';

/** A simulator code must be exchanged within this time, as a real provider's would. */
const CODE_TTL_MS = 5 * 60_000;

/**
 * The onboarding simulator (DECISIONS.md "Providers"): its authorization page (api/simulator/)
 * creates the company's account and redirects back with a code, as SuperPDP's tunnel does; the
 * code is exchanged with the PKCE verifier, once, within 5 minutes; the company stays "under review"
 * (403 at SuperPDP) for the seconds the page asked for. Its accounts live in
 * `onboarding_simulator_grants`, only their codes' and tokens' hashes.
 */
export class SimulatedOnboarding implements OnboardingProvider, SimulatorAccounts {
  readonly kind = 'simulator' as const;
  readonly client = null;

  constructor(
    private readonly db: Knex,
    private readonly clock: Clock,
    private readonly baseUrl: string,
    readonly redirectUri: string,
    private readonly appKey: Buffer | null,
  ) {}

  /** The simulated token never rotates: the one stored, sealed, on the connection. */
  async accessTokenOf(connection: ConnectionRef): Promise<string> {
    const row = await inTenantContext(this.db, systemCaller(connection.tenantId), (tx) =>
      tx('provider_connections')
        .where({ id: connection.id })
        .first<{ access_token_sealed: string | null } | undefined>(),
    );
    if (!row?.access_token_sealed || !this.appKey)
      throw new AppError('NOT_FOUND', `No simulated connection ${connection.id}.`);
    return openStoredAccessToken(this.appKey, connection.id, row.access_token_sealed);
  }

  authorizeUrl(request: AuthorizeRequest): string {
    const url = new URL(`${this.baseUrl}/simulator/superpdp/oauth2/authorize`);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', 'simulator');
    url.searchParams.set('redirect_uri', this.redirectUri);
    url.searchParams.set('state', request.state);
    url.searchParams.set('code_challenge', request.codeChallenge);
    url.searchParams.set('code_challenge_method', 'S256');
    if (request.loginHint) url.searchParams.set('login_hint', request.loginHint);
    return url.toString();
  }

  /** The authorization page's "approve": the account and its code (returned once, stored as a hash). */
  async createAccount(tx: Knex, account: SimulatedAccount): Promise<string> {
    const code = `simcode_${randomSecret()}`;
    const now = this.clock.now();
    await tx('onboarding_simulator_grants').insert({
      code_hash: sha256Hex(code),
      redirect_uri: account.redirectUri,
      code_challenge: account.codeChallenge,
      company_name: account.companyName,
      siret: account.siret,
      email: account.email,
      review_until: account.reviewSeconds > 0 ? new Date(now.getTime() + account.reviewSeconds * 1000) : null,
      code_expires_at: new Date(now.getTime() + CODE_TTL_MS),
      created_at: now,
    });
    return code;
  }

  async exchangeCode(code: string, codeVerifier: string): Promise<OAuthGrant> {
    const accessToken = `simat_${randomSecret()}`;
    const now = this.clock.now();
    // One statement: a code is spent once, only with the verifier of its challenge, before its deadline.
    const spent = await this.db('onboarding_simulator_grants')
      .where({ code_hash: sha256Hex(code), code_challenge: codeChallengeOf(codeVerifier) })
      .whereNull('code_used_at')
      .andWhere('code_expires_at', '>', now)
      .update({ code_used_at: now, access_token_hash: sha256Hex(accessToken) });
    if (spent !== 1) {
      throw new AppError(
        'ONBOARDING_STATE_INVALID',
        'The provider refused the authorization code (invalid_grant: unknown, used, expired, or a wrong code_verifier).',
      );
    }
    return { accessToken, refreshToken: `simrt_${randomSecret()}`, expiresIn: 1800 };
  }

  async company(accessToken: string): Promise<ProviderCompany> {
    const row = await this.db('onboarding_simulator_grants')
      .where({ access_token_hash: sha256Hex(accessToken) })
      .first<{ company_name: string; siret: string; email: string; review_until: Date | null } | undefined>();
    if (!row) throw new AppError('ONBOARDING_STATE_INVALID', 'The provider refused the access token.');
    const underReview = row.review_until !== null && row.review_until.getTime() > this.clock.now().getTime();
    return {
      verification: underReview ? 'needs_review' : 'verified',
      name: row.company_name,
      siret: row.siret,
      email: row.email,
    };
  }
}
