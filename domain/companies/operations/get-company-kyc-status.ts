import type { CompanyIdInput, CompanyKycStatus } from '../../../schemas/companies.js';
import { defineQuery } from '../../shared/operation.js';
import { toKycStatusView } from '../company.js';
import { getCompany } from '../company-store.js';

export const getCompanyKycStatus = defineQuery<CompanyIdInput, CompanyKycStatus>({
  name: 'get_company_kyc_status',
  summary:
    "Read where a company's KYC stands: not_started, pending, completed (production API keys work) or failed (with the reason).",
  input: 'CompanyIdInput',
  output: 'CompanyKycStatus',
  // The worker reads it too, to skip a verification already recorded.
  callers: ['user', 'system'],
  async run(input, ctx) {
    return toKycStatusView(await getCompany(ctx.tx, ctx.caller.tenantId!, input.id));
  },
});
