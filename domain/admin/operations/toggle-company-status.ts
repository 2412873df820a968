import type { AdminCompany, AdminToggleStatusInput } from '../../../schemas/admin.js';
import { defineCommand } from '../../shared/operation.js';
import { recordAdminAction } from '../admin-audit-store.js';
import { lockCompanyStatus, requireAdminCompany, setCompanyStatus } from '../admin-company-store.js';
import { actAcrossTenants } from '../admin-scope.js';

/**
 * Disabling takes effect on the next request of every API key restricted to the company: the key
 * lookup reads the company's status each time (migrations/20261127070100_refuse_keys_of_disabled_companies.ts).
 * Nothing is revoked, so enabling the company again makes its keys work again.
 */
export const toggleCompanyStatus = defineCommand<AdminToggleStatusInput, AdminCompany>({
  name: 'toggle_company_status',
  summary:
    'Admin: disable an enabled company or enable a disabled one. The API keys restricted to a disabled company are refused (403 COMPANY_DISABLED) from the next request on; enabled again, they work again.',
  input: 'AdminToggleStatusInput',
  output: 'AdminCompany',
  callers: ['user'],
  permission: 'admin access',
  async run(input, ctx) {
    await actAcrossTenants(ctx.tx);
    const company = await lockCompanyStatus(ctx.tx, input.id);
    const status = company.status === 'active' ? 'inactive' : 'active';
    await setCompanyStatus(ctx.tx, input.id, status, ctx.clock.now());
    const view = await requireAdminCompany(ctx.tx, input.id);
    await recordAdminAction(ctx.tx, ctx.caller, {
      action: status === 'active' ? 'company.enabled' : 'company.disabled',
      targetType: 'company',
      targetId: input.id,
      targetTenantId: company.tenant_id,
      details: { name: view.name, siret: view.siret, reason: input.reason ?? null },
    });
    return view;
  },
});
