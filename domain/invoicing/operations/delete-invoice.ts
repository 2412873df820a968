import type { InvoiceIdInput } from '../../../schemas/invoices.js';
import { actorOf } from '../../audit/index.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { auditInvoice } from '../invoice-audit.js';
import { findReadableInvoice, invoiceReaderOf } from '../invoice-queries.js';
import type { InvoiceRow } from '../invoice-row.js';
import { type InvoiceView, toInvoiceView } from '../invoice-view.js';

export const deleteInvoice = defineCommand<InvoiceIdInput, InvoiceView>({
  name: 'delete_invoice',
  summary:
    'Delete a draft invoice (beyond the specification): it becomes `deleted`, stays readable by id and in its audit trail, and its fiscal-ledger entry is kept. Only drafts: any other status answers 409 INVALID_STATE (correct a sent invoice with a credit note).',
  input: 'InvoiceIdInput',
  output: 'Invoice',
  callers: ['user', 'tenant'],
  scope: 'invoices',
  async run(input, ctx) {
    const reader = invoiceReaderOf(ctx.caller);
    // Locked: a concurrent submit or delete waits, then sees the status this one leaves.
    const { invoice, lines } = await findReadableInvoice(ctx.tx, reader, input.id, { forUpdate: true });
    if (invoice.status !== 'draft') {
      throw new AppError(
        'INVALID_STATE',
        `Invoice ${invoice.invoice_number} is ${invoice.status}: only a draft can be deleted.${invoice.status === 'deleted' ? '' : ' Correct it with a credit note instead.'}`,
        { body: { status: invoice.status } },
      );
    }
    const now = ctx.clock.now();
    const [deleted] = await ctx
      .tx('invoices')
      .where({ id: invoice.id })
      .update({ status: 'deleted', deleted_at: now, updated_at: now })
      .returning<InvoiceRow[]>('*');
    await auditInvoice(ctx.tx, invoice, {
      action: 'invoice.deleted',
      details: { invoice_number: invoice.invoice_number, previous_status: invoice.status },
      actorIp: ctx.caller.ip ?? null,
      actor: actorOf(ctx.caller),
      now,
    });
    return toInvoiceView(deleted, lines);
  },
});
