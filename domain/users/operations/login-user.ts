import type { AuthSession, LoginUserInput } from '../../../schemas/auth.js';
import { loginThrottle } from '../../auth/index.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { enterTenant } from '../../shared/tenant-context.js';
import { findTenant } from '../../tenants/index.js';
import { hashPassword, verifyPassword } from '../password.js';
import { completeSignIn, findUserByEmail } from '../sign-in.js';

/** One message for an unknown e-mail and a wrong password: a login never tells which. */
export const WRONG_CREDENTIALS = 'These credentials do not match our records.';

// Checked against when the e-mail is unknown, so both failures take the same scrypt time.
let decoy: Promise<string> | undefined;
const decoyHash = (): Promise<string> => {
  decoy ??= hashPassword('decoy, never matches');
  return decoy;
};

export const loginUser = defineCommand<LoginUserInput, AuthSession>({
  name: 'login_user',
  summary:
    'Sign a dashboard user in with e-mail and password: returns the user and a bearer token (or, in the browser flow, sets the session cookie).',
  input: 'LoginUserInput',
  output: 'AuthSession',
  callers: ['anonymous'],
  async run(input, ctx) {
    const { deps, caller } = ctx;
    await loginThrottle.attempt(deps, 'user', input.email, caller.ip);
    const found = await findUserByEmail(ctx, input.email);
    const matches = await verifyPassword(input.password, found?.password_hash ?? (await decoyHash()));
    if (!found || !matches) {
      throw AppError.validation({ email: [WRONG_CREDENTIALS] }, WRONG_CREDENTIALS);
    }
    await enterTenant(ctx.tx, found.tenant_id);
    const workspace = await findTenant(ctx.tx, found.tenant_id);
    if (!found.is_active || !workspace?.is_active) {
      throw AppError.validation({ email: ['This account is disabled. Contact support.'] });
    }
    await loginThrottle.succeeded(deps, 'user', input.email, caller.ip);
    return completeSignIn(ctx, found, 'Login successful.');
  },
});
