import type { AdminToggleStatusInput, AdminUser } from '../../../schemas/admin.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { recordAdminAction } from '../admin-audit-store.js';
import { actAcrossTenants } from '../admin-scope.js';
import { requireAdminUser, setUserActive, toAdminUser } from '../admin-user-store.js';

/**
 * Disabling takes effect on the user's next request: every bearer token, cookie session and API key
 * is resolved with the user's `is_active` (domain/auth/resolve-credential.ts), never from a cache.
 * Nothing is revoked, so enabling the user again makes them work again.
 */
export const toggleUserStatus = defineCommand<AdminToggleStatusInput, AdminUser>({
  name: 'toggle_user_status',
  summary:
    "Admin: disable an enabled user or enable a disabled one. A disabled user's tokens, sessions and API keys are refused (403 ACCOUNT_DISABLED) from the next request on; enabled again, they work again.",
  input: 'AdminToggleStatusInput',
  output: 'AdminUser',
  callers: ['user'],
  permission: 'admin access',
  async run(input, ctx) {
    await actAcrossTenants(ctx.tx);
    const user = await requireAdminUser(ctx.tx, input.id, { forUpdate: true });
    const active = !user.is_active;
    if (!active && user.id === ctx.caller.userId) {
      throw new AppError('INVALID_STATE', 'An admin cannot disable its own account: ask another admin.');
    }
    const updated = await setUserActive(ctx.tx, user.id, active, ctx.clock.now());
    await recordAdminAction(ctx.tx, ctx.caller, {
      action: active ? 'user.enabled' : 'user.disabled',
      targetType: 'user',
      targetId: user.id,
      targetTenantId: user.tenant_id,
      details: { email: user.email, reason: input.reason ?? null },
    });
    return toAdminUser(updated);
  },
});
