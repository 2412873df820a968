import type { AdminIdInput, AdminUser } from '../../../schemas/admin.js';
import { defineQuery } from '../../shared/operation.js';
import { actAcrossTenants } from '../admin-scope.js';
import { requireAdminUser, toAdminUser } from '../admin-user-store.js';

export const getAdminUser = defineQuery<AdminIdInput, AdminUser>({
  name: 'get_admin_user',
  summary: 'Admin: one dashboard user, whatever its workspace.',
  input: 'AdminIdInput',
  output: 'AdminUser',
  callers: ['user'],
  permission: 'admin access',
  async run(input, ctx) {
    await actAcrossTenants(ctx.tx);
    return toAdminUser(await requireAdminUser(ctx.tx, input.id));
  },
});
