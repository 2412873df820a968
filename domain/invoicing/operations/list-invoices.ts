import type { InvoiceListInput } from '../../../schemas/invoices.js';
import { defineQuery } from '../../shared/operation.js';
import type { Page } from '../../shared/pagination.js';
import { invoiceReaderOf, listInvoicePage } from '../invoice-queries.js';
import type { InvoiceView } from '../invoice-view.js';

export const listInvoices = defineQuery<InvoiceListInput, Page<InvoiceView>>({
  name: 'list_invoices',
  summary:
    'List invoices newest first, with their lines. A key reads its own environment only; a dashboard token both, unless `environment` filters. Filters: company_id, status (validated also finds completed; deleted drafts only with status=deleted), direction, from and to (issue date). Paginated: per_page default 25, at most 100.',
  input: 'InvoiceListInput',
  output: 'InvoicePage',
  callers: ['user', 'tenant'],
  scope: 'invoices',
  async run(input, ctx) {
    return listInvoicePage(ctx.tx, invoiceReaderOf(ctx.caller), input);
  },
});
