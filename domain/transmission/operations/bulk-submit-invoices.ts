import type { InvoiceIdsInput, InvoiceTransmissionStatus } from '../../../schemas/transmission.js';
import { invoiceReaderOf } from '../../invoicing/invoice-queries.js';
import { isAppError } from '../../shared/app-error.js';
import { errorBody } from '../../shared/error-body.js';
import { defineCommand } from '../../shared/operation.js';
import { submitInvoice } from '../submit.js';
import { transmissionStatusOf } from '../transmission-status.js';

export const bulkSubmitInvoices = defineCommand<InvoiceIdsInput, { data: InvoiceTransmissionStatus[] }>({
  name: 'bulk_submit_invoices',
  summary:
    'Submit up to 100 outgoing invoices at once. Each is submitted as `submit_invoice` would; one that cannot be (unknown id, wrong status) gets its own `error` entry and does not stop the others.',
  input: 'InvoiceIdsInput',
  output: 'InvoiceTransmissionStatuses',
  callers: ['tenant'],
  scope: 'invoices',
  async run(input, ctx) {
    const reader = invoiceReaderOf(ctx.caller);
    const data: InvoiceTransmissionStatus[] = [];
    for (const id of input.invoice_ids) {
      // A savepoint per invoice: a refusal undoes that invoice's writes only.
      try {
        data.push(
          transmissionStatusOf(await ctx.tx.transaction((sp) => submitInvoice({ ...ctx, tx: sp }, reader, id))),
        );
      } catch (err) {
        if (!isAppError(err) || err.status >= 500) throw err;
        data.push({ id, status: null, error: errorBody(err) });
      }
    }
    return { data };
  },
});
