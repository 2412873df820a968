import type { InvoiceIdsInput, InvoiceTransmissionStatus } from '../../../schemas/transmission.js';
import { findReadableInvoiceRow, invoiceReaderOf } from '../../invoicing/index.js';
import { isAppError } from '../../shared/app-error.js';
import { errorBody } from '../../shared/error-body.js';
import { defineQuery } from '../../shared/operation.js';
import { transmissionStatusOf } from '../transmission-status.js';

export const bulkInvoiceStatus = defineQuery<InvoiceIdsInput, { data: InvoiceTransmissionStatus[] }>({
  name: 'bulk_invoice_status',
  summary:
    'Read the transmission state (status, status_message, pdp_id, submitted_at) of up to 100 invoices at once; an id of another account answers an entry with error NOT_FOUND.',
  input: 'InvoiceIdsInput',
  output: 'InvoiceTransmissionStatuses',
  callers: ['tenant'],
  scope: 'invoices',
  async run(input, ctx) {
    const reader = invoiceReaderOf(ctx.caller);
    const data: InvoiceTransmissionStatus[] = [];
    for (const id of input.invoice_ids) {
      try {
        data.push(transmissionStatusOf(await findReadableInvoiceRow(ctx.tx, reader, id)));
      } catch (err) {
        if (!isAppError(err) || err.code !== 'NOT_FOUND') throw err;
        data.push({ id, status: null, error: errorBody(err) });
      }
    }
    return { data };
  },
});
