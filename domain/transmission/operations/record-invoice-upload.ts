import type { UploadOutcome, UploadOutcomeInput } from '../../../schemas/transmission-jobs.js';
import { auditInvoice, type InvoiceRow } from '../../invoicing/index.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { applyUploadEvents } from '../lifecycle-events.js';
import { applyQueuedSimulations, dropQueuedSimulations } from '../simulated-pending-codes.js';

/**
 * Records what an upload gave: the provider's id and first events (accepted, or found already
 * uploaded after a crash), `failed` with the provider's message (refused), or one more attempt
 * (unavailable; `failed` after TRANSMISSION_MAX_ATTEMPTS, 12 by default: about two hours). Applies the sandbox `simulate` codes queued meanwhile.
 * Queues the event sync of the connection.
 */
export const recordInvoiceUpload = defineCommand<UploadOutcomeInput, UploadOutcome>({
  name: 'record_invoice_upload',
  summary: "Record the outcome of an invoice's upload to the e-invoicing provider.",
  input: 'UploadOutcomeInput',
  output: 'UploadOutcome',
  callers: ['system'],
  async run(input, ctx) {
    const invoice = await ctx
      .tx('invoices')
      .where({ id: input.invoice_id })
      .forUpdate()
      .first<InvoiceRow | undefined>();
    if (!invoice) throw new AppError('NOT_FOUND', 'No such invoice.', { retryable: false });
    if (invoice.status !== 'submitted' || invoice.pdp_id) {
      return { invoice_id: invoice.id, status: invoice.status, retry: false };
    }
    const now = ctx.clock.now();
    const audit = (action: string, details: Record<string, unknown>) =>
      auditInvoice(ctx.tx, invoice, {
        action,
        details,
        actorIp: null,
        actor: { type: 'system', id: null },
        now,
      });
    if (input.outcome === 'accepted' && input.pdp_id) {
      await ctx.tx('invoices').where({ id: invoice.id }).update({ pdp_id: input.pdp_id, updated_at: now });
      await audit('invoice.uploaded', { pdp_id: input.pdp_id });
      if (invoice.provider_connection_id) {
        const connection = { id: invoice.provider_connection_id, tenant_id: invoice.tenant_id };
        // with the events a sync read before this id was known (a worker killed between upload and record)
        await applyUploadEvents(ctx, connection, input.pdp_id, input.events ?? []);
        // sandbox `simulate` calls made while the upload was queued, now that the simulator has it
        await applyQueuedSimulations(ctx, connection, invoice.id, input.pdp_id);
        await ctx.jobs.send(
          'sync-provider-events',
          { tenantId: invoice.tenant_id, connectionId: connection.id },
          { startAfter: Math.max(1, ctx.deps.config.simulatorStepSeconds), singletonKey: connection.id },
        );
      }
      return { invoice_id: invoice.id, status: 'submitted', retry: false };
    }
    const attempts = invoice.transmission_attempts + 1;
    const final = input.outcome === 'refused' || attempts >= ctx.deps.config.transmissionMaxAttempts;
    const message =
      input.outcome === 'refused'
        ? `The e-invoicing provider refused the invoice: ${input.message ?? 'no reason given'}`
        : `The e-invoicing provider could not be reached after ${attempts} attempts: ${input.message ?? ''}`;
    await ctx
      .tx('invoices')
      .where({ id: invoice.id })
      .update({
        transmission_attempts: attempts,
        ...(final ? { status: 'failed', status_message: message.slice(0, 1000) } : {}),
        updated_at: now,
      });
    if (final) {
      await audit('invoice.failed', { message: message.slice(0, 1000), attempts });
      await dropQueuedSimulations(ctx.tx, invoice.id);
    }
    return { invoice_id: invoice.id, status: final ? 'failed' : 'submitted', retry: !final };
  },
});
