import type { LoginTenantInput, TenantToken } from '../../../schemas/tenant-auth.js';
import { issueAccessToken, loginThrottle } from '../../auth/index.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { enterTenant } from '../../shared/tenant-context.js';
import { hashPassword, verifyPassword } from '../../users/index.js';

interface TenantLogin {
  id: string;
  password_hash: string | null;
  is_active: boolean;
}

/** Compared against when the e-mail is unknown, so a miss costs the same time as a wrong password. */
let decoyHash: Promise<string> | undefined;

export const loginTenant = defineCommand<LoginTenantInput, TenantToken>({
  name: 'login_tenant',
  summary:
    'Sign a tenant in with its e-mail and password. Returns a tenant token for one environment (sandbox by default; production needs verified KYB), valid 24 hours, to send as Authorization: Bearer on tenant routes.',
  input: 'LoginTenantInput',
  output: 'TenantToken',
  callers: ['anonymous'],
  async run(input, ctx) {
    const { deps, caller } = ctx;
    const ip = caller.ip ?? null;
    await loginThrottle.attempt(deps, 'tenant', input.email, ip);

    const { rows } = await ctx.tx.raw<{ rows: TenantLogin[] }>('select * from auth_find_tenant_by_email(?)', [
      input.email,
    ]);
    const found = rows[0];
    decoyHash ??= hashPassword('decoy password, never matches');
    const matches = await verifyPassword(input.password, found?.password_hash ?? (await decoyHash));
    if (!found?.password_hash || !matches) {
      throw new AppError('INVALID_CREDENTIALS', 'The e-mail or the password is wrong.');
    }
    await loginThrottle.succeeded(deps, 'tenant', input.email, ip);
    if (!found.is_active) {
      throw new AppError('TENANT_DISABLED', 'This tenant is deactivated. Contact support to reactivate it.');
    }

    await enterTenant(ctx.tx, found.id);
    const tenant = await ctx.tx('tenants').where({ id: found.id }).first<{ kyb_status: string }>('kyb_status');
    const environment = input.environment ?? 'sandbox';
    if (environment === 'production' && tenant?.kyb_status !== 'verified') {
      throw new AppError(
        'KYC_REQUIRED',
        `Production sign-in needs a verified KYB (status: ${tenant?.kyb_status}). Sign in to sandbox meanwhile.`,
        { body: { kyb_status: tenant?.kyb_status } },
      );
    }
    const now = ctx.clock.now();
    const issued = await issueAccessToken(ctx.tx, {
      tenantId: found.id,
      userId: null,
      kind: 'tenant',
      environment,
      ip,
      now,
    });
    return { token: issued.token, tenant_id: found.id, expires_at: issued.expiresAt.toISOString(), environment };
  },
});
