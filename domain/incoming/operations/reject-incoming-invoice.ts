import type { IncomingReasonInput } from '../../../schemas/incoming-invoices.js';
import { defineCommand } from '../../shared/operation.js';
import { decideIncoming } from '../decide-incoming.js';
import type { IncomingInvoiceView } from '../incoming-view.js';

export const rejectIncomingInvoice = defineCommand<IncomingReasonInput, IncomingInvoiceView>({
  name: 'reject_incoming_invoice',
  summary:
    'Refuse a supplier invoice (received or disputed → rejected) with a `reason` and an AFNOR `reason_code` (default AUTRE). Received through the e-invoicing network, the supplier is told with the French status fr:210 (Refusée). 409 INVALID_STATE from another status.',
  input: 'RejectIncomingInvoiceInput',
  output: 'IncomingInvoice',
  callers: ['user', 'tenant'],
  scope: 'invoices',
  run: (input, ctx) =>
    decideIncoming(ctx, input.id, 'reject', { reasonCode: input.reason_code ?? 'AUTRE', reasonText: input.reason }),
});
