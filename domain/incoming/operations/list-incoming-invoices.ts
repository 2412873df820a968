import type { IncomingInvoiceListInput } from '../../../schemas/incoming-invoices.js';
import { defineQuery } from '../../shared/operation.js';
import type { Page } from '../../shared/pagination.js';
import { incomingReaderOf, viewsOf } from '../incoming-reader.js';
import { listIncoming } from '../incoming-store.js';
import type { IncomingInvoiceView } from '../incoming-view.js';

export const listIncomingInvoices = defineQuery<IncomingInvoiceListInput, Page<IncomingInvoiceView>>({
  name: 'list_incoming_invoices',
  summary:
    'List your incoming (supplier) invoices, newest first: an API key sees its environment, a dashboard token both. Filter by `status` and by issue date (`from`, `to`).',
  input: 'IncomingInvoiceListInput',
  output: 'IncomingInvoicePage',
  callers: ['user', 'tenant'],
  scope: 'invoices',
  async run(input, ctx) {
    const page = await listIncoming(ctx.tx, incomingReaderOf(ctx.caller), input);
    return { ...page, data: await viewsOf(ctx.tx, page.data) };
  },
});
