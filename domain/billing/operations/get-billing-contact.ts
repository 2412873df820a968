import type { BalanceAlertInput, BillingContact } from '../../../schemas/top-ups.js';
import { defineQuery } from '../../shared/operation.js';
import { tenantContactsOf } from '../../tenants/index.js';

/** Where balance alerts go: the tenant's billing e-mail, else its technical e-mail, else its sign-in e-mail. */
export const getBillingContact = defineQuery<BalanceAlertInput, BillingContact>({
  name: 'get_billing_contact',
  summary: 'The e-mail address balance alerts and auto-reload failures are sent to.',
  input: 'BalanceAlertInput',
  output: 'BillingContact',
  callers: ['system'],
  async run(_input, ctx) {
    const c = await tenantContactsOf(ctx.tx, ctx.caller.tenantId!);
    return { to: c.billing ?? c.user ?? c.technical ?? c.account };
  },
});
