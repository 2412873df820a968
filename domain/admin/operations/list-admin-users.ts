import type { AdminUser, AdminUserListInput } from '../../../schemas/admin.js';
import { defineQuery } from '../../shared/operation.js';
import { type Page, paginate } from '../../shared/pagination.js';
import { actAcrossTenants } from '../admin-scope.js';
import { type AdminUserRow, adminUsersQuery, toAdminUser } from '../admin-user-store.js';

export const listAdminUsers = defineQuery<AdminUserListInput, Page<AdminUser>>({
  name: 'list_admin_users',
  summary:
    'Admin: every dashboard user, newest first; search e-mail and name, filter by status (active, disabled) and role.',
  input: 'AdminUserListInput',
  output: 'AdminUserList',
  callers: ['user'],
  permission: 'admin access',
  async run(input, ctx) {
    await actAcrossTenants(ctx.tx);
    return paginate<AdminUserRow, AdminUser>(adminUsersQuery(ctx.tx, input), input, toAdminUser);
  },
});
