import type { IncomingReasonInput } from '../../../schemas/incoming-invoices.js';
import { defineCommand } from '../../shared/operation.js';
import { decideIncoming } from '../decide-incoming.js';
import type { IncomingInvoiceView } from '../incoming-view.js';

export const disputeIncomingInvoice = defineCommand<IncomingReasonInput, IncomingInvoiceView>({
  name: 'dispute_incoming_invoice',
  summary:
    'Dispute a received supplier invoice (received → disputed) with a `reason` and an AFNOR `reason_code` (default AUTRE). Received through the e-invoicing network, the supplier is told with the French status fr:207 (En litige). 409 INVALID_STATE from another status.',
  input: 'DisputeIncomingInvoiceInput',
  output: 'IncomingInvoice',
  callers: ['user', 'tenant'],
  scope: 'invoices',
  run: (input, ctx) =>
    decideIncoming(ctx, input.id, 'dispute', { reasonCode: input.reason_code ?? 'AUTRE', reasonText: input.reason }),
});
