import type { SimulateLifecycleInput } from '../../../schemas/transmission.js';
import { findReadableInvoice, type InvoiceView, invoiceReaderOf, toInvoiceView } from '../../invoicing/index.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { LIFECYCLE_LABELS } from '../lifecycle.js';
import { applyProviderEvents } from '../lifecycle-events.js';
import { findConnection } from '../provider-connection-store.js';
import { queueSimulatedCode } from '../simulated-pending-codes.js';
import { forceSimulatedEvent } from '../simulator-store.js';

export const simulateInvoiceLifecycle = defineCommand<SimulateLifecycleInput, InvoiceView>({
  name: 'simulate_invoice_lifecycle',
  summary:
    'Sandbox only: force a lifecycle code on a submitted invoice, as the e-invoicing network would send it (e.g. `fr:210` refused or `fr:213` rejected with a reason, `fr:212` paid). The invoice leaves its automatic path, the code is applied at once with its webhook, and the invoice is returned. If its upload is still queued, the code is recorded and applied when the upload lands (the invoice is returned as it is, `submitted`). 409 INVALID_STATE before submission.',
  input: 'SimulateLifecycleInput',
  output: 'Invoice',
  callers: ['user', 'tenant'],
  scope: 'invoices',
  async run(input, ctx) {
    if (!(input.status_code in LIFECYCLE_LABELS)) {
      throw AppError.validation({ status_code: [`must be one of ${Object.keys(LIFECYCLE_LABELS).join(', ')}`] });
    }
    const reader = invoiceReaderOf(ctx.caller);
    // Locked like record_invoice_upload locks it: the upload either landed before (pdp_id set) or
    // will see the code queued below (simulated-pending-codes.ts).
    const { invoice, lines } = await findReadableInvoice(ctx.tx, reader, input.id, { forUpdate: true });
    const connection = invoice.provider_connection_id
      ? await findConnection(ctx.tx, invoice.tenant_id, invoice.provider_connection_id)
      : undefined;
    if (!invoice.pdp_id && invoice.status === 'submitted' && connection?.provider === 'simulator') {
      await queueSimulatedCode(ctx.tx, invoice, input.status_code, input.reason ?? null, ctx.clock.now());
      return toInvoiceView(invoice, lines);
    }
    if (!invoice.pdp_id || connection?.provider !== 'simulator') {
      throw new AppError(
        'INVALID_STATE',
        `Invoice ${invoice.invoice_number} is not at the simulator (status ${invoice.status}): submit it first.`,
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
    const { invoice: after, lines: afterLines } = await findReadableInvoice(ctx.tx, reader, input.id);
    return toInvoiceView(after, afterLines);
  },
});
