import type { AuthSession, RegisterUserInput } from '../../../schemas/auth.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { isUniqueViolation } from '../../shared/pg-errors.js';
import { insertTenantAndEnter } from '../../tenants/index.js';
import { hashPassword } from '../password.js';
import { passwordProblems } from '../password-policy.js';
import { normalizePhone, PHONE_PROBLEM } from '../phone.js';
import { completeSignIn, findUserByEmail } from '../sign-in.js';
import { insertUser } from '../user-store.js';
import { queueVerificationMail } from './resend-email-verification.js';

const TAKEN = { email: ['has already been taken'] };

export const registerUser = defineCommand<RegisterUserInput, AuthSession>({
  name: 'register_user',
  summary:
    'Create a dashboard account (role user) with its own workspace and balance, and sign it in: returns the user and a bearer token. A link to confirm the e-mail is mailed; production API keys wait for it.',
  input: 'RegisterUserInput',
  output: 'AuthSession',
  callers: ['anonymous'],
  async run(input, ctx) {
    const email = input.email.trim().toLowerCase();
    const phone = normalizePhone(input.phone);
    const errors: Record<string, string[]> = {};
    if (await findUserByEmail(ctx, email)) Object.assign(errors, TAKEN);
    const weak = passwordProblems(input.password, email);
    if (weak.length) errors.password = weak;
    if (!phone) errors.phone = [PHONE_PROBLEM];
    if (Object.keys(errors).length) throw AppError.validation(errors);

    const now = ctx.clock.now();
    const passwordHash = await hashPassword(input.password);
    const workspace = await insertTenantAndEnter(ctx.tx, { kind: 'workspace', name: email, now });
    const user = await insertUser(ctx.tx, {
      tenantId: workspace.id,
      email,
      passwordHash,
      firstName: input.first_name.trim(),
      lastName: input.last_name.trim(),
      phone,
      role: 'user',
      permissions: [],
      now,
    }).catch((err: unknown) => {
      // Two sign-ups with one e-mail at the same moment: the unique index decides.
      if (isUniqueViolation(err, 'users_email_unique')) throw AppError.validation(TAKEN);
      throw err;
    });
    // The address is not proven yet: a link to confirm it goes out with this transaction's commit.
    await queueVerificationMail(ctx, workspace.id, user.id);
    return completeSignIn(ctx, user, 'Registration successful.');
  },
});
