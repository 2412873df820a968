import type { Company, ListCompaniesInput } from '../../../schemas/companies.js';
import { defineQuery } from '../../shared/operation.js';
import { type Page, paginate } from '../../shared/pagination.js';
import { type CompanyRow, toCompanyView } from '../company.js';
import { listQuery } from '../company-store.js';

export const listCompanies = defineQuery<ListCompaniesInput, Page<Company>>({
  name: 'list_companies',
  summary: 'List your companies (the legal entities you invoice as), newest first, with their KYC status.',
  input: 'ListCompaniesInput',
  output: 'CompanyList',
  callers: ['user'],
  async run(input, ctx) {
    const page = { page: input.page ?? 1, per_page: input.per_page ?? 25 };
    return paginate<CompanyRow, Company>(listQuery(ctx.tx, ctx.caller.tenantId!), page, toCompanyView);
  },
});
