import type { AdminCompany, AdminIdInput } from '../../../schemas/admin.js';
import { defineQuery } from '../../shared/operation.js';
import { requireAdminCompany } from '../admin-company-store.js';
import { actAcrossTenants } from '../admin-scope.js';

export const getAdminCompany = defineQuery<AdminIdInput, AdminCompany>({
  name: 'get_admin_company',
  summary: 'Admin: one company, whatever its tenant, with its owner and figures.',
  input: 'AdminIdInput',
  output: 'AdminCompany',
  callers: ['user'],
  permission: 'admin access',
  async run(input, ctx) {
    await actAcrossTenants(ctx.tx);
    return requireAdminCompany(ctx.tx, input.id);
  },
});
