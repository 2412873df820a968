import type { BillingInvoiceIdInput } from '../../../schemas/billing-invoices.js';
import { AppError } from '../../shared/app-error.js';
import { defineQuery } from '../../shared/operation.js';
import { tenantWideCaller } from '../../tenants/index.js';
import { findBillingInvoice } from '../billing-invoice-store.js';
import { type BillingInvoiceView, toBillingInvoiceView } from '../billing-invoice-view.js';

export const getBillingInvoice = defineQuery<BillingInvoiceIdInput, BillingInvoiceView>({
  name: 'get_billing_invoice',
  summary:
    'One monthly billing invoice: its counts, prices, volume discount, VAT and totals, what the balance prepaid and what remains due, the seller and the buyer.',
  input: 'BillingInvoiceIdInput',
  output: 'BillingInvoice',
  callers: ['tenant'],
  async run({ id }, ctx) {
    const { tenantId } = tenantWideCaller(ctx.caller, 'get_billing_invoice');
    const row = await findBillingInvoice(ctx.tx, tenantId, id);
    if (!row) throw new AppError('NOT_FOUND', 'No such billing invoice.');
    return toBillingInvoiceView(row);
  },
});
