import type { CompanyDeleted, CompanyIdInput } from '../../../schemas/companies.js';
import { defineCommand } from '../../shared/operation.js';
import { getCompany, revokeCompanyKeys, softDeleteCompany } from '../company-store.js';

export const deleteCompany = defineCommand<CompanyIdInput, CompanyDeleted>({
  name: 'delete_company',
  summary:
    'Delete one of your companies. Its SIRET becomes free again, and the API keys restricted to it are revoked at once.',
  input: 'CompanyIdInput',
  output: 'CompanyDeleted',
  callers: ['user'],
  async run(input, ctx) {
    const tenantId = ctx.caller.tenantId!;
    const now = ctx.clock.now();
    const company = await getCompany(ctx.tx, tenantId, input.id, { forUpdate: true });
    await softDeleteCompany(ctx.tx, tenantId, company.id, now);
    const revoked = await revokeCompanyKeys(ctx.tx, tenantId, company.id, now);
    ctx.log.info({ company_id: company.id, revoked_api_keys: revoked }, 'company deleted');
    return { message: 'Company deleted.' };
  },
});
