import type { AdminCompany, AdminCompanyListInput } from '../../../schemas/admin.js';
import { defineQuery } from '../../shared/operation.js';
import { type Page, paginate } from '../../shared/pagination.js';
import { adminCompaniesQuery, toAdminCompany } from '../admin-company-store.js';
import { actAcrossTenants } from '../admin-scope.js';

export const listAdminCompanies = defineQuery<AdminCompanyListInput, Page<AdminCompany>>({
  name: 'list_admin_companies',
  summary:
    'Admin: every company (deleted ones left out), newest first; search name, SIRET and e-mail, filter by status, kyc_status and tenant_id.',
  input: 'AdminCompanyListInput',
  output: 'AdminCompanyList',
  callers: ['user'],
  permission: 'admin access',
  async run(input, ctx) {
    await actAcrossTenants(ctx.tx);
    return paginate(adminCompaniesQuery(ctx.tx, input), input, toAdminCompany);
  },
});
