import type { InvoiceInput } from '../../../schemas/invoices.js';
import { defineCommand } from '../../shared/operation.js';
import { invoiceBatch } from '../invoice-batch.js';
import { invoiceOwnerOf } from '../invoice-owner.js';
import type { InvoiceView } from '../invoice-view.js';
import { issueInvoice } from '../issue-invoice.js';

export const createTenantInvoice = defineCommand<InvoiceInput, InvoiceView>({
  name: 'create_tenant_invoice',
  summary:
    "Create a draft invoice for the tenant or one of its sub-tenants. Direction, format and totals may be left out: they default to outgoing, Factur-X and the lines' sums; totals given are checked.",
  input: 'CreateTenantInvoiceInput',
  output: 'Invoice',
  callers: ['tenant'],
  scope: 'invoices',
  batch: invoiceBatch((ctx, caller, input) => invoiceOwnerOf(ctx.tx, caller, input.subTenantId)),
  async run(input, ctx) {
    const owner = await invoiceOwnerOf(ctx.tx, ctx.caller, input.subTenantId);
    return issueInvoice(ctx, owner, input);
  },
});
