import type { MarkIncomingInvoicePaidInput } from '../../../schemas/incoming-invoices.js';
import { defineCommand } from '../../shared/operation.js';
import { decideIncoming } from '../decide-incoming.js';
import type { IncomingInvoiceView } from '../incoming-view.js';

export const markIncomingInvoicePaid = defineCommand<MarkIncomingInvoicePaidInput, IncomingInvoiceView>({
  name: 'mark_incoming_invoice_paid',
  summary:
    'Record the payment of an accepted (or disputed) supplier invoice, with an optional `payment_reference`, `paid_at` day (today when left out) and UNTDID 4461 `payment_means_code`; an empty body is enough. Received through the e-invoicing network, the supplier is told with the French status fr:211 (Paiement transmis), carrying the reference. 409 INVALID_STATE from another status.',
  input: 'MarkIncomingInvoicePaidInput',
  output: 'IncomingInvoice',
  callers: ['user', 'tenant'],
  scope: 'invoices',
  run: (input, ctx) =>
    decideIncoming(ctx, input.id, 'mark_paid', {
      payment: {
        reference: input.payment_reference ?? null,
        meansCode: input.payment_means_code ?? null,
        paidAt: input.paid_at ?? ctx.clock.now().toISOString().slice(0, 10),
      },
    }),
});
