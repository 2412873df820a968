import type { AdminStats, AdminStatsInput } from '../../../schemas/admin.js';
import { defineQuery } from '../../shared/operation.js';
import { actAcrossTenants } from '../admin-scope.js';
import { platformStats } from '../admin-stats.js';

export const getAdminStats = defineQuery<AdminStatsInput, AdminStats>({
  name: 'get_admin_stats',
  summary:
    'Admin: figures of the whole platform: tenants, users, companies, sub-tenants, invoices, credit notes and signatures per environment, and the revenue charged per month and environment.',
  input: 'AdminStatsInput',
  output: 'AdminStats',
  callers: ['user'],
  permission: 'admin access',
  async run(input, ctx) {
    await actAcrossTenants(ctx.tx);
    return platformStats(ctx.tx, input.months ?? 12, ctx.clock.now());
  },
});
