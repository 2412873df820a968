import type { InvoiceIdInput } from '../../../schemas/invoices.js';
import { type InvoiceView, invoiceReaderOf, linesOf, toInvoiceView } from '../../invoicing/index.js';
import { defineCommand } from '../../shared/operation.js';
import { submitInvoice as submit } from '../submit.js';

export const submitInvoice = defineCommand<InvoiceIdInput, InvoiceView>({
  name: 'submit_invoice',
  summary:
    'Submit an outgoing invoice to the e-invoicing network: a draft (or a failed invoice, to resubmit) becomes `submitted` and is uploaded shortly after; `pdp_id` appears once the provider has it, and the lifecycle (transmitted, processing, completed, rejected, paid) follows through webhooks. Other statuses answer 409 INVALID_STATE.',
  input: 'InvoiceIdInput',
  output: 'Invoice',
  callers: ['user', 'tenant'],
  scope: 'invoices',
  async run(input, ctx) {
    const invoice = await submit(ctx, invoiceReaderOf(ctx.caller), input.id);
    return toInvoiceView(invoice, (await linesOf(ctx.tx, [invoice.id])).get(invoice.id) ?? []);
  },
});
