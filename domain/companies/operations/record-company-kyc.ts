import type { CompanyKycStatus, RecordCompanyKycInput } from '../../../schemas/companies.js';
import { defineCommand } from '../../shared/operation.js';
import { toKycStatusView } from '../company.js';
import { getCompany, updateCompany } from '../company-store.js';

/**
 * Records the provider's final answer. Idempotent: only the pending verification with this
 * reference changes; a repeated or stale answer (a newer verification started since) changes nothing.
 */
export const recordCompanyKyc = defineCommand<RecordCompanyKycInput, CompanyKycStatus>({
  name: 'record_company_kyc',
  summary: "Record the identity verification provider's decision on a company's pending KYC.",
  input: 'RecordCompanyKycInput',
  output: 'CompanyKycStatus',
  callers: ['system'],
  async run(input, ctx) {
    const tenantId = ctx.caller.tenantId!;
    const company = await getCompany(ctx.tx, tenantId, input.company_id, { forUpdate: true });
    if (company.kyc_status !== 'pending' || company.kyc_reference !== input.reference) {
      return toKycStatusView(company);
    }
    const now = ctx.clock.now();
    const approved = input.outcome === 'approved';
    const recorded = await updateCompany(
      ctx.tx,
      tenantId,
      company.id,
      approved
        ? { kyc_status: 'completed', kyc_completed_at: now, kyc_failure_reason: null }
        : { kyc_status: 'failed', kyc_failure_reason: input.reason ?? 'Rejected by the verification provider.' },
      now,
    );
    ctx.log.info({ company_id: company.id, kyc_status: recorded.kyc_status }, 'company KYC recorded');
    return toKycStatusView(recorded);
  },
});
