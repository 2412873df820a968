import type { BillingInvoiceListInput } from '../../../schemas/billing-invoices.js';
import { defineQuery } from '../../shared/operation.js';
import { type Page, paginate } from '../../shared/pagination.js';
import { tenantWideCaller } from '../../tenants/index.js';
import { billingInvoicesOf } from '../billing-invoice-store.js';
import { type BillingInvoiceView, toBillingInvoiceView } from '../billing-invoice-view.js';

export const listBillingInvoices = defineQuery<BillingInvoiceListInput, Page<BillingInvoiceView>>({
  name: 'list_billing_invoices',
  summary:
    "The operator's monthly invoices to the tenant, newest month first: one per month of paid production usage, issued on the 1st of the next month and prepaid by the balance.",
  input: 'BillingInvoiceListInput',
  output: 'BillingInvoicePage',
  callers: ['tenant'],
  async run(input, ctx) {
    const { tenantId } = tenantWideCaller(ctx.caller, 'list_billing_invoices');
    const query = billingInvoicesOf(ctx.tx, tenantId, { year: input.year });
    return paginate(query, { page: input.page ?? 1, per_page: input.per_page ?? 25 }, toBillingInvoiceView);
  },
});
