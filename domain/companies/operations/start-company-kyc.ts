import type { CompanyIdInput, CompanyKycSession } from '../../../schemas/companies.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import type { CompanyRow } from '../company.js';
import { getCompany, updateCompany } from '../company-store.js';
import { providerUnavailable } from '../kyc-provider.js';

const sessionOf = (row: CompanyRow): CompanyKycSession => ({
  status: 'pending',
  reference: row.kyc_reference!,
  started_at: row.kyc_started_at!.toISOString(),
  verification_url: row.kyc_verification_url,
});

/**
 * Opens the verification at the provider, marks the company pending and queues the job that
 * fetches the outcome. The provider call is the one exception to "no provider call inside a
 * transaction": the answer must carry the provider's reference, and the row lock makes two
 * concurrent starts ask the provider once. A provider failure rolls everything back (503).
 */
export const startCompanyKyc = defineCommand<CompanyIdInput, CompanyKycSession>({
  name: 'start_company_kyc',
  summary:
    'Start the identity verification (KYC/KYB) of one of your companies; the outcome arrives asynchronously (GET .../kyc/status). Starting again while it is pending returns the same verification.',
  input: 'CompanyIdInput',
  output: 'CompanyKycSession',
  callers: ['user'],
  async run(input, ctx) {
    const tenantId = ctx.caller.tenantId!;
    const company = await getCompany(ctx.tx, tenantId, input.id, { forUpdate: true });
    if (company.kyc_status === 'completed') {
      throw new AppError(
        'CONFLICT',
        `The KYC of company ${company.id} already completed on ${company.kyc_completed_at?.toISOString()}.`,
        { retryable: false },
      );
    }
    if (company.kyc_status === 'pending') return sessionOf(company);

    const session = await ctx.deps.kycProvider
      .start({
        companyId: company.id,
        siret: company.siret,
        name: company.name,
        vatNumber: company.vat_number,
        country: company.country,
      })
      .catch((err: unknown) => {
        throw providerUnavailable(err);
      });
    const now = ctx.clock.now();
    const pending = await updateCompany(
      ctx.tx,
      tenantId,
      company.id,
      {
        kyc_status: 'pending',
        kyc_reference: session.reference,
        kyc_verification_url: session.verificationUrl,
        kyc_started_at: now,
        kyc_completed_at: null,
        kyc_failure_reason: null,
      },
      now,
    );
    await ctx.jobs.send(
      'verify-company-kyc',
      { tenantId, companyId: company.id, reference: session.reference, siret: company.siret },
      { group: { id: tenantId } },
    );
    return sessionOf(pending);
  },
});
