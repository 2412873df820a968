import type { GoogleSignInUrl } from '../../../schemas/auth.js';
import type { EmptyInput } from '../../../schemas/common.js';
import { AppError } from '../../shared/app-error.js';
import { defineQuery } from '../../shared/operation.js';
import { IdentityProviderError } from '../identity-provider.js';
import { issueOAuthState } from '../oauth-state.js';

export const getGoogleSignInUrl = defineQuery<EmptyInput, GoogleSignInUrl>({
  name: 'get_google_sign_in_url',
  summary:
    'The Google page to send the browser to for "Sign in with Google"; Google then redirects to GET /v1/auth/google/callback (the link\'s state is valid 10 minutes).',
  input: 'EmptyInput',
  output: 'GoogleSignInUrl',
  callers: ['anonymous'],
  transactional: false,
  async run(_input, ctx) {
    const state = issueOAuthState(ctx.deps.config.appKey, ctx.clock.now());
    try {
      return { url: ctx.deps.identityProvider.authorizationUrl(state) };
    } catch (err) {
      if (err instanceof IdentityProviderError) throw new AppError('SERVICE_UNAVAILABLE', err.message);
      throw err;
    }
  },
});
