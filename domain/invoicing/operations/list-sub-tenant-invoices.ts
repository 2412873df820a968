import type { InvoiceListInput } from '../../../schemas/invoices.js';
import { defineQuery } from '../../shared/operation.js';
import type { Page } from '../../shared/pagination.js';
import { invoiceOwnerOf } from '../invoice-owner.js';
import { invoiceReaderOf, listInvoicePage } from '../invoice-queries.js';
import type { InvoiceView } from '../invoice-view.js';

export const listSubTenantInvoices = defineQuery<InvoiceListInput, Page<InvoiceView>>({
  name: 'list_sub_tenant_invoices',
  summary:
    "List one sub-tenant's invoices in the key's environment, newest first, with the filters and pagination of GET /v1/invoices. A sub-tenant outside the tenant answers 404.",
  input: 'InvoiceListInput',
  output: 'InvoicePage',
  callers: ['tenant'],
  scope: 'invoices',
  async run(input, ctx) {
    // The path's sub-tenant must be the tenant's, in the key's environment (404 otherwise).
    const owner = await invoiceOwnerOf(ctx.tx, ctx.caller, input.subTenantId);
    return listInvoicePage(ctx.tx, invoiceReaderOf(ctx.caller), { ...input, subTenantId: owner.subTenantId! });
  },
});
