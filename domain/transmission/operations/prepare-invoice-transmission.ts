import type { InvoiceJobInput, TransmissionPlan } from '../../../schemas/transmission-jobs.js';
import { findInvoiceDocument, type InvoiceRow } from '../../invoicing/index.js';
import { AppError } from '../../shared/app-error.js';
import { defineQuery } from '../../shared/operation.js';
import { accountOf, findConnection } from '../provider-connection-store.js';

/** SuperPDP's processing rule (provider-apis.md §1.4): consumers B2C, buyers abroad B2BInt. */
const processingRuleOf = (invoice: InvoiceRow) =>
  invoice.buyer_is_individual ? 'B2C' : invoice.buyer_country !== 'FR' ? 'B2BInt' : 'B2B';

/**
 * What the transmission worker does with a submitted invoice: skip it (not submitted any more, or
 * already uploaded: `pdp_id` set), wait for its file, or upload its Factur-X, UBL or CII file
 * (per `output_format`) through its connection.
 */
export const prepareInvoiceTransmission = defineQuery<InvoiceJobInput, TransmissionPlan>({
  name: 'prepare_invoice_transmission',
  summary: 'Read what the transmission worker uploads for a submitted invoice.',
  input: 'InvoiceJobInput',
  output: 'TransmissionPlan',
  callers: ['system'],
  async run(input, ctx) {
    const invoice = await ctx.tx('invoices').where({ id: input.invoice_id }).first<InvoiceRow | undefined>();
    if (!invoice) throw new AppError('NOT_FOUND', 'No such invoice.', { retryable: false });
    if (invoice.status !== 'submitted') return { action: 'skip', reason: `status is ${invoice.status}` };
    if (invoice.pdp_id) return { action: 'skip', reason: `already uploaded as ${invoice.pdp_id}` };
    const connection = invoice.provider_connection_id
      ? await findConnection(ctx.tx, invoice.tenant_id, invoice.provider_connection_id)
      : undefined;
    if (!connection) throw new AppError('NOT_FOUND', 'The invoice has no provider connection.', { retryable: false });
    if (invoice.documents_status === 'pending') return { action: 'wait', reason: 'its file is not generated yet' };
    const doc =
      invoice.documents_status === 'ready'
        ? await findInvoiceDocument(ctx.tx, invoice.id, invoice.output_format)
        : undefined;
    if (!doc) {
      throw new AppError(
        'DOCUMENT_GENERATION_FAILED',
        `The invoice's ${invoice.output_format} file could not be generated: ${invoice.documents_error ?? 'no file'}.`,
        { retryable: false },
      );
    }
    return {
      action: 'upload',
      account: accountOf(connection),
      external_id: invoice.id,
      processing_rule: processingRuleOf(invoice),
      content_type: invoice.output_format === 'facturx' ? 'application/pdf' : 'application/xml',
      filename: doc.filename,
      file_base64: doc.content.toString('base64'),
    };
  },
});
