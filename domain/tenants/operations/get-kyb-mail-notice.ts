import type { EmptyInput } from '../../../schemas/common.js';
import type { KybMailNotice } from '../../../schemas/kyb.js';
import { AppError } from '../../shared/app-error.js';
import { defineQuery } from '../../shared/operation.js';

/** For the `send-kyb-status-mail` job: whom to tell about a KYB change of the job's tenant. */
export const getKybMailNotice = defineQuery<EmptyInput, KybMailNotice>({
  name: 'get_kyb_mail_notice',
  summary: "Where to mail a tenant's KYB change: its technical e-mail, else its account e-mail.",
  input: 'EmptyInput',
  output: 'KybMailNotice',
  callers: ['system'],
  async run(_input, ctx) {
    const tenant = ctx.caller.tenantId
      ? await ctx
          .tx('tenants')
          .where({ id: ctx.caller.tenantId })
          .first<{ name: string; email: string | null; technical_email: string | null } | undefined>([
            'name',
            'email',
            'technical_email',
          ])
      : undefined;
    if (!tenant) throw new AppError('NOT_FOUND', 'Tenant not found.');
    return { to: tenant.technical_email || tenant.email || null, name: tenant.name };
  },
});
