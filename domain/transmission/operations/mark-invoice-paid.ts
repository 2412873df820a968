import type { MarkInvoicePaidInput } from '../../../schemas/transmission.js';
import { actorOf } from '../../audit/index.js';
import {
  auditInvoice,
  findReadableInvoice,
  type InvoiceRow,
  type InvoiceView,
  invoiceReaderOf,
  toInvoiceView,
} from '../../invoicing/index.js';
import { assertKillSwitchOff } from '../../ledger/index.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { type InvoiceStatus, PAYABLE } from '../lifecycle.js';
import { invoiceEventData, ownerOf } from '../lifecycle-events.js';
import { recordPayment } from '../record-payment.js';

export const markInvoicePaid = defineCommand<MarkInvoicePaidInput, InvoiceView>({
  name: 'mark_invoice_paid',
  summary:
    'Record the payment of an outgoing invoice at the buyer (transmitted, processing or completed): it becomes `paid`, a `payment` entry goes into the fiscal ledger, `invoice.paid` is sent, and the provider is told (`fr:212`, Encaissée). Other statuses answer 409 INVALID_STATE.',
  input: 'MarkInvoicePaidInput',
  output: 'Invoice',
  callers: ['user', 'tenant'],
  scope: 'invoices',
  async run(input, ctx) {
    const { invoice, lines } = await findReadableInvoice(ctx.tx, invoiceReaderOf(ctx.caller), input.id, {
      forUpdate: true,
    });
    if (invoice.direction !== 'outgoing' || !PAYABLE.includes(invoice.status as InvoiceStatus)) {
      throw new AppError(
        'INVALID_STATE',
        `Invoice ${invoice.invoice_number} is ${invoice.status}: only a transmitted, processing or completed outgoing invoice can be marked paid.`,
        { body: { status: invoice.status } },
      );
    }
    await assertKillSwitchOff(ctx.tx, { tenantId: invoice.tenant_id, environment: invoice.environment });
    const now = ctx.clock.now();
    const payment = await recordPayment(ctx, invoice, {
      reference: input.payment_reference ?? 'manual',
      date: input.payment_date ?? now.toISOString().slice(0, 10),
    });
    const [paid] = await ctx
      .tx('invoices')
      .where({ id: invoice.id })
      .update({ status: 'paid', ...payment, updated_at: now })
      .returning<InvoiceRow[]>('*');
    await auditInvoice(ctx.tx, invoice, {
      action: 'invoice.paid',
      details: { previous_status: invoice.status, payment_reference: input.payment_reference ?? 'manual' },
      actorIp: ctx.caller.ip ?? null,
      actor: actorOf(ctx.caller),
      now,
    });
    await ctx.events.emit('invoice.paid', invoiceEventData(paid, null), ownerOf(paid));
    // The seller reports its receipt (fr:212 is one of the four statuses the PPF must get).
    await ctx.jobs.send('send-invoice-status', {
      tenantId: invoice.tenant_id,
      invoiceId: invoice.id,
      statusCode: 'fr:212',
    });
    return toInvoiceView(paid, lines);
  },
});
