import { LOCKED_INVOICE_FIELDS, type UpdateInvoiceInput } from '../../../schemas/invoice-reading.js';
import { actorOf } from '../../audit/index.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { auditInvoice } from '../invoice-audit.js';
import { findReadableInvoice, invoiceReaderOf } from '../invoice-queries.js';
import type { InvoiceRow } from '../invoice-row.js';
import { type InvoiceView, toInvoiceView } from '../invoice-view.js';

export const updateInvoice = defineCommand<UpdateInvoiceInput, InvoiceView>({
  name: 'update_invoice',
  summary:
    'Change what may change on an invoice (beyond the specification): `metadata` (replaced whole) and `archive_enabled`. Fiscal fields (number, dates, parties, lines, totals, currency...) are locked once the invoice is in the fiscal ledger, which is from creation: sending one answers 409 INVOICE_IMMUTABLE.',
  input: 'UpdateInvoiceInput',
  output: 'Invoice',
  callers: ['user', 'tenant'],
  scope: 'invoices',
  async run(input, ctx) {
    const sent = LOCKED_INVOICE_FIELDS.filter((name) => input[name] !== undefined);
    const reader = invoiceReaderOf(ctx.caller);
    const { invoice, lines } = await findReadableInvoice(ctx.tx, reader, input.id, { forUpdate: true });
    if (sent.length > 0) {
      throw new AppError(
        'INVOICE_IMMUTABLE',
        `Invoice ${invoice.invoice_number} is in the fiscal ledger: ${sent.join(', ')} cannot change. Only metadata and archive_enabled can; correct an issued invoice with a credit note.`,
        { body: { locked_fields: sent } },
      );
    }
    const changes: Partial<Pick<InvoiceRow, 'metadata' | 'archive_enabled'>> = {};
    if (input.metadata !== undefined) changes.metadata = input.metadata;
    if (input.archive_enabled !== undefined) changes.archive_enabled = input.archive_enabled;
    if (Object.keys(changes).length === 0) return toInvoiceView(invoice, lines);

    const now = ctx.clock.now();
    const [updated] = await ctx
      .tx('invoices')
      .where({ id: invoice.id })
      .update({
        ...changes,
        ...(changes.metadata ? { metadata: JSON.stringify(changes.metadata) } : {}),
        updated_at: now,
      })
      .returning<InvoiceRow[]>('*');
    await auditInvoice(ctx.tx, invoice, {
      action: 'invoice.updated',
      details: {
        changed: Object.keys(changes),
        ...('archive_enabled' in changes ? { archive_enabled: changes.archive_enabled } : {}),
      },
      actorIp: ctx.caller.ip ?? null,
      actor: actorOf(ctx.caller),
      now,
    });
    return toInvoiceView(updated, lines);
  },
});
