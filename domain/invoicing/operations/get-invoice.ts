import type { InvoiceIdInput } from '../../../schemas/invoices.js';
import { defineQuery } from '../../shared/operation.js';
import { findReadableInvoice, invoiceReaderOf } from '../invoice-queries.js';
import { type InvoiceView, toInvoiceView } from '../invoice-view.js';

export const getInvoice = defineQuery<InvoiceIdInput, InvoiceView>({
  name: 'get_invoice',
  summary:
    'Read one invoice with its lines and its lifecycle events from the e-invoicing provider, deleted drafts included. An id of another account or of the other environment answers 404.',
  input: 'InvoiceIdInput',
  output: 'Invoice',
  callers: ['user', 'tenant'],
  scope: 'invoices',
  async run(input, ctx) {
    const { invoice, lines } = await findReadableInvoice(ctx.tx, invoiceReaderOf(ctx.caller), input.id);
    return toInvoiceView(invoice, lines);
  },
});
