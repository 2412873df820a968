import type { KybMailNotice, KybMailNoticeInput } from '../../../schemas/kyb.js';
import { AppError } from '../../shared/app-error.js';
import { defineQuery } from '../../shared/operation.js';

interface NoticeRow {
  name: string;
  email: string | null;
  technical_email: string | null;
  kyb_rejection_reason: string | null;
}

/** For the `send-kyb-status-mail` job: whom to tell about a KYB change of the job's tenant. */
export const getKybMailNotice = defineQuery<KybMailNoticeInput, KybMailNotice>({
  name: 'get_kyb_mail_notice',
  summary: "Where to mail a tenant's KYB change: its technical e-mail, else its account e-mail.",
  input: 'KybMailNoticeInput',
  output: 'KybMailNotice',
  callers: ['system'],
  async run(input, ctx) {
    const tenantId = ctx.caller.tenantId;
    const tenant = tenantId
      ? await ctx
          .tx('tenants')
          .where({ id: tenantId })
          .first<NoticeRow | undefined>(['name', 'email', 'technical_email', 'kyb_rejection_reason'])
      : undefined;
    if (!tenant) throw new AppError('NOT_FOUND', 'Tenant not found.');
    return {
      to: tenant.technical_email || tenant.email || null,
      name: tenant.name,
      status: input.status,
      rejection_reason: input.status === 'rejected' ? tenant.kyb_rejection_reason : null,
    };
  },
});
