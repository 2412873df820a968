import type { IncomingInvoiceIdInput } from '../../../schemas/incoming-invoices.js';
import { defineQuery } from '../../shared/operation.js';
import { incomingReaderOf, viewsOf } from '../incoming-reader.js';
import { findIncoming } from '../incoming-store.js';
import type { IncomingInvoiceView } from '../incoming-view.js';

export const getIncomingInvoice = defineQuery<IncomingInvoiceIdInput, IncomingInvoiceView>({
  name: 'get_incoming_invoice',
  summary:
    'Read one incoming (supplier) invoice: parsed fields, lines, decision and status history. An id of another account or environment answers 404.',
  input: 'IncomingInvoiceIdInput',
  output: 'IncomingInvoice',
  callers: ['user', 'tenant'],
  scope: 'invoices',
  async run(input, ctx) {
    const [view] = await viewsOf(ctx.tx, [await findIncoming(ctx.tx, incomingReaderOf(ctx.caller), input.id)]);
    return view;
  },
});
