import type { Company, CompanyIdInput } from '../../../schemas/companies.js';
import { defineQuery } from '../../shared/operation.js';
import { toCompanyView } from '../company.js';
import { getCompany as findCompany } from '../company-store.js';

export const getCompany = defineQuery<CompanyIdInput, Company>({
  name: 'get_company',
  summary: 'Read one of your companies by id, with its KYC status.',
  input: 'CompanyIdInput',
  output: 'Company',
  callers: ['user'],
  async run(input, ctx) {
    return toCompanyView(await findCompany(ctx.tx, ctx.caller.tenantId!, input.id));
  },
});
