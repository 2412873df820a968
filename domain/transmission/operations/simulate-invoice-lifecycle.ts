import type { SimulateLifecycleInput } from '../../../schemas/transmission.js';
import { findReadableInvoice, invoiceReaderOf } from '../../invoicing/invoice-queries.js';
import { type InvoiceView, toInvoiceView } from '../../invoicing/invoice-view.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { LIFECYCLE_LABELS } from '../lifecycle.js';
import { applyProviderEvents } from '../lifecycle-events.js';
import { findConnection } from '../provider-connection-store.js';
import { forceSimulatedEvent } from '../simulator-store.js';

export const simulateInvoiceLifecycle = defineCommand<SimulateLifecycleInput, InvoiceView>({
  name: 'simulate_invoice_lifecycle',
  summary:
    'Sandbox only: force a lifecycle code on a submitted invoice, as the e-invoicing network would send it (e.g. `fr:210` refused or `fr:213` rejected with a reason, `fr:212` paid). The invoice leaves its automatic path, the code is applied at once with its webhook, and the invoice is returned.',
  input: 'SimulateLifecycleInput',
  output: 'Invoice',
  callers: ['user', 'tenant'],
  scope: 'invoices',
  async run(input, ctx) {
    if (!(input.status_code in LIFECYCLE_LABELS)) {
      throw AppError.validation({ status_code: [`must be one of ${Object.keys(LIFECYCLE_LABELS).join(', ')}`] });
    }
    const reader = invoiceReaderOf(ctx.caller);
    const { invoice } = await findReadableInvoice(ctx.tx, reader, input.id);
    const connection = invoice.provider_connection_id
      ? await findConnection(ctx.tx, invoice.tenant_id, invoice.provider_connection_id)
      : undefined;
    if (!invoice.pdp_id || connection?.provider !== 'simulator') {
      throw new AppError(
        'INVALID_STATE',
        `Invoice ${invoice.invoice_number} is not at the simulator yet (status ${invoice.status}): submit it and wait for its pdp_id.`,
        { body: { status: invoice.status } },
      );
    }
    const event = await forceSimulatedEvent(
      ctx.tx,
      { tenantId: invoice.tenant_id, connectionId: connection.id, pdpId: invoice.pdp_id },
      input.status_code,
      input.reason ?? null,
      ctx.clock.now(),
    );
    await applyProviderEvents(ctx, connection, [event]);
    const { invoice: after, lines } = await findReadableInvoice(ctx.tx, reader, input.id);
    return toInvoiceView(after, lines);
  },
});
