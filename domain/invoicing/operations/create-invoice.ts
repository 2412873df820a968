import type { InvoiceInput } from '../../../schemas/invoices.js';
import { defineCommand } from '../../shared/operation.js';
import { invoiceBatch } from '../invoice-batch.js';
import { invoiceOwnerOf } from '../invoice-owner.js';
import type { InvoiceView } from '../invoice-view.js';
import { issueInvoice } from '../issue-invoice.js';

export const createInvoice = defineCommand<InvoiceInput, InvoiceView>({
  name: 'create_invoice',
  summary:
    'Create a draft invoice: every rule and the EN 16931 totals are checked, it is charged 0.04 EUR in production (free in sandbox), recorded in the fiscal ledger, and its Factur-X, UBL or CII file is generated shortly after.',
  input: 'CreateInvoiceInput',
  output: 'Invoice',
  callers: ['user', 'tenant'],
  scope: 'invoices',
  batch: invoiceBatch((ctx, caller) => invoiceOwnerOf(ctx.tx, caller)),
  async run(input, ctx) {
    const owner = await invoiceOwnerOf(ctx.tx, ctx.caller);
    return issueInvoice(ctx, owner, input);
  },
});
