import type { BalanceAlertInput, BillingContact } from '../../../schemas/top-ups.js';
import { defineQuery } from '../../shared/operation.js';

/** Where balance alerts go: the tenant's billing e-mail, else its technical e-mail, else its sign-in e-mail. */
export const getBillingContact = defineQuery<BalanceAlertInput, BillingContact>({
  name: 'get_billing_contact',
  summary: 'The e-mail address balance alerts and auto-reload failures are sent to.',
  input: 'BalanceAlertInput',
  output: 'BillingContact',
  callers: ['system'],
  async run(_input, ctx) {
    const tenantId = ctx.caller.tenantId!;
    const tenant = await ctx
      .tx('tenants')
      .where({ id: tenantId })
      .first<{ kind: string; technical_email: string | null; billing_email: string | null; email: string | null }>([
        'kind',
        'technical_email',
        'billing_email',
        'email',
      ]);
    const user =
      tenant?.kind === 'workspace'
        ? await ctx.tx('users').where({ tenant_id: tenantId }).orderBy('created_at').first<{ email: string }>('email')
        : undefined;
    return { to: tenant?.billing_email ?? user?.email ?? tenant?.technical_email ?? tenant?.email ?? null };
  },
});
