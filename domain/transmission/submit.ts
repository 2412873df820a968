import { actorOf } from '../audit/index.js';
import { auditInvoice, findReadableInvoiceRow, type InvoiceReader, type InvoiceRow } from '../invoicing/index.js';
import { AppError } from '../shared/app-error.js';
import type { OperationContext } from '../shared/operation.js';
import { providerKindFor } from './einvoicing-providers.js';
import { type InvoiceStatus, SUBMITTABLE } from './lifecycle.js';
import { connectionFor, simulatorConnection } from './provider-connection-store.js';

/**
 * Submits one invoice in the operation's transaction (DECISIONS.md "Invoice lifecycle"): from
 * `draft`, or from `failed` to resubmit, it becomes `submitted` with its provider connection, and
 * its `transmit-invoice` job is queued in the same transaction (a rollback drops both). The upload
 * itself is the worker's, outside any transaction.
 */
export async function submitInvoice(ctx: OperationContext, reader: InvoiceReader, id: string): Promise<InvoiceRow> {
  const invoice = await findReadableInvoiceRow(ctx.tx, reader, id, { forUpdate: true });
  if (invoice.direction !== 'outgoing') {
    throw new AppError(
      'INVALID_STATE',
      'Only outgoing invoices are submitted; incoming ones arrive from the provider.',
    );
  }
  if (!SUBMITTABLE.includes(invoice.status as InvoiceStatus)) {
    throw new AppError(
      'INVALID_STATE',
      `Invoice ${invoice.invoice_number} is ${invoice.status}: only a draft, or a failed invoice (resubmission), can be submitted.`,
      { body: { status: invoice.status } },
    );
  }
  const kind = providerKindFor(ctx.deps.config, invoice.environment);
  if (!kind) {
    throw new AppError(
      'PROVIDER_UNAVAILABLE',
      'No e-invoicing provider is configured for production invoices (SUPERPDP_BASE_URL) on this deployment.',
      {
        retryable: true,
      },
    );
  }
  const connection =
    kind === 'simulator'
      ? await simulatorConnection(ctx.tx, invoice.tenant_id, invoice.environment)
      : await connectionFor(ctx.tx, invoice, kind);
  if (!connection) {
    throw new AppError(
      'PROVIDER_NOT_CONNECTED',
      'No SuperPDP connection serves this invoice’s company: connect one (`einvoice provider connect`), then submit again.',
    );
  }
  const now = ctx.clock.now();
  const [submitted] = await ctx
    .tx('invoices')
    .where({ id: invoice.id })
    .update({
      status: 'submitted',
      status_message: null,
      submitted_at: now,
      transmission_attempts: 0,
      provider_connection_id: connection.id,
      updated_at: now,
    })
    .returning<InvoiceRow[]>('*');
  await auditInvoice(ctx.tx, invoice, {
    action: 'invoice.submitted',
    details: { invoice_number: invoice.invoice_number, previous_status: invoice.status, provider: connection.provider },
    actorIp: ctx.caller.ip ?? null,
    actor: actorOf(ctx.caller),
    now,
  });
  await ctx.jobs.send(
    'transmit-invoice',
    { tenantId: invoice.tenant_id, invoiceId: invoice.id },
    { group: { id: invoice.tenant_id } },
  );
  return submitted;
}
