import type { AuthMessage } from '../../../schemas/auth.js';
import type { EmptyInput } from '../../../schemas/common.js';
import { revokeAccessToken } from '../../auth/index.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';

export const logoutUser = defineCommand<EmptyInput, AuthMessage>({
  name: 'logout_user',
  summary: 'Sign out: the bearer token or cookie session of this request stops working at once.',
  input: 'EmptyInput',
  output: 'AuthMessage',
  callers: ['user'],
  async run(_input, ctx) {
    const credential = ctx.caller.credential;
    if (!credential || (credential.type !== 'access_token' && credential.type !== 'session')) {
      throw new AppError('FORBIDDEN', 'Logout ends a bearer token or a cookie session; API keys are revoked instead.');
    }
    await revokeAccessToken(ctx.tx, credential.id, ctx.clock.now());
    return { message: 'Logged out.' };
  },
});
