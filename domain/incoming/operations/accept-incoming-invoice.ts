import type { IncomingInvoiceIdInput } from '../../../schemas/incoming-invoices.js';
import { defineCommand } from '../../shared/operation.js';
import { decideIncoming } from '../decide-incoming.js';
import type { IncomingInvoiceView } from '../incoming-view.js';

export const acceptIncomingInvoice = defineCommand<IncomingInvoiceIdInput, IncomingInvoiceView>({
  name: 'accept_incoming_invoice',
  summary:
    'Approve a supplier invoice (received or disputed → accepted). Received through the e-invoicing network, the supplier is told with the French status fr:205 (Approuvée). 409 INVALID_STATE from another status.',
  input: 'IncomingInvoiceIdInput',
  output: 'IncomingInvoice',
  callers: ['user', 'tenant'],
  scope: 'invoices',
  run: (input, ctx) => decideIncoming(ctx, input.id, 'accept'),
});
