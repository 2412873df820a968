import type { InvoiceJobInput, StatusTarget } from '../../../schemas/transmission-jobs.js';
import type { InvoiceRow } from '../../invoicing/index.js';
import { defineQuery } from '../../shared/operation.js';
import { accountOf, findConnection } from '../provider-connection-store.js';

/** Where a status about an invoice goes: its connection and the provider's id (skip before upload). */
export const getInvoiceStatusTarget = defineQuery<InvoiceJobInput, StatusTarget>({
  name: 'get_invoice_status_target',
  summary: 'Read the provider connection and id a lifecycle status about an invoice is sent to.',
  input: 'InvoiceJobInput',
  output: 'StatusTarget',
  callers: ['system'],
  async run(input, ctx) {
    const invoice = await ctx.tx('invoices').where({ id: input.invoice_id }).first<InvoiceRow | undefined>();
    if (!invoice?.pdp_id || !invoice.provider_connection_id) return { skip: true };
    const connection = await findConnection(ctx.tx, invoice.tenant_id, invoice.provider_connection_id);
    if (!connection) return { skip: true };
    return { skip: false, account: accountOf(connection), pdp_id: invoice.pdp_id };
  },
});
