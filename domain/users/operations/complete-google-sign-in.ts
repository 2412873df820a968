import type { AuthSession, GoogleCallbackInput } from '../../../schemas/auth.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand, type OperationContext } from '../../shared/operation.js';
import { isUniqueViolation } from '../../shared/pg-errors.js';
import { insertTenantAndEnter } from '../../tenants/index.js';
import { linkGoogleAccount } from '../account-claim.js';
import { type ExternalIdentity, IdentityProviderError } from '../identity-provider.js';
import { isValidOAuthState } from '../oauth-state.js';
import { completeSignIn, findUserByEmail } from '../sign-in.js';
import { insertUser } from '../user-store.js';

const refused = (why: string) => new AppError('UNAUTHENTICATED', `Google sign-in failed: ${why}`);

export const completeGoogleSignIn = defineCommand<GoogleCallbackInput, AuthSession>({
  name: 'complete_google_sign_in',
  summary:
    'Where Google redirects back: checks the state, exchanges the code, then signs the user in, linking the Google account to the user with its e-mail (an unverified account loses its password and every credential) or creating one. 401 on any failure.',
  input: 'GoogleCallbackInput',
  output: 'AuthSession',
  callers: ['anonymous'],
  async run(input, ctx) {
    if (!isValidOAuthState(ctx.deps.config.appKey, ctx.clock.now(), input.state, ctx.caller.oauthNonce)) {
      throw refused(
        'the sign-in link expired, was altered, or was not started in this browser. Start again at GET /api/v1/auth/google.',
      );
    }
    if (input.error || !input.code) throw refused(`Google did not authorize it (${input.error ?? 'no code'}).`);
    // The one provider call of the sign-in; bounded by the adapter's timeout (5 s per request).
    const identity = await ctx.deps.identityProvider.exchangeCode(input.code, input.state!).catch((err: unknown) => {
      if (err instanceof IdentityProviderError) throw refused(err.message);
      throw err;
    });
    if (!identity.emailVerified) throw refused('Google has not verified the e-mail of this account.');
    const user = await findOrCreateUser(ctx, identity).catch((err: unknown) => {
      if (isUniqueViolation(err)) throw refused('the account was being created by another request; try again.');
      throw err;
    });
    return completeSignIn(ctx, user, 'Signed in with Google.');
  },
});

interface Found {
  id: string;
  tenant_id: string;
  is_active: boolean;
}

/**
 * By Google account id first, then by e-mail (linking the Google account, which takes over an
 * account whose e-mail was never verified), else a new user and workspace, verified by Google.
 */
async function findOrCreateUser(ctx: OperationContext, identity: ExternalIdentity): Promise<Found> {
  const { rows } = await ctx.tx.raw<{ rows: Found[] }>('select * from auth_find_user_by_google_id(?)', [
    identity.subject,
  ]);
  let user: Found | undefined = rows[0];
  if (!user) {
    const byEmail = await findUserByEmail(ctx, identity.email);
    if (byEmail?.google_id && byEmail.google_id !== identity.subject) {
      throw refused('this e-mail is linked to another Google account.');
    }
    if (byEmail) {
      await linkGoogleAccount(ctx, byEmail, identity);
      user = byEmail;
    }
  }
  if (user) {
    if (!user.is_active) throw refused('this account is disabled. Contact support.');
    return user;
  }
  const now = ctx.clock.now();
  const workspace = await insertTenantAndEnter(ctx.tx, { kind: 'workspace', name: identity.email, now });
  return insertUser(ctx.tx, {
    tenantId: workspace.id,
    email: identity.email,
    passwordHash: null,
    firstName: identity.firstName,
    lastName: identity.lastName,
    googleId: identity.subject,
    avatarUrl: identity.avatarUrl,
    emailVerifiedAt: now,
    role: 'user',
    permissions: [],
    now,
  });
}
