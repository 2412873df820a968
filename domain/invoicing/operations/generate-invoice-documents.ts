import type { InvoiceIdInput } from '../../../schemas/invoices.js';
import { defineCommand } from '../../shared/operation.js';
import { type GeneratedDocuments, recordInvoiceRendering, renderInvoiceFiles } from '../generated-documents.js';
import { findInvoice } from '../invoice-store.js';

export type { GeneratedDocuments };

/**
 * The document worker's step: renders the invoice's files from the stored invoice (its format,
 * plus the readable PDF or, for Factur-X, the embedded CII), stores them and marks the invoice
 * `ready`, with an audit entry giving each file's SHA-256. Idempotent: an invoice already ready is
 * skipped, whoever made its files (a download renders them on demand when it comes first).
 * Rendering is pure, so a failure would repeat: the invoice is marked `failed` with the reason,
 * and downloads say so, instead of retrying forever.
 */
export const generateInvoiceDocuments = defineCommand<InvoiceIdInput, GeneratedDocuments>({
  name: 'generate_invoice_documents',
  summary: "Render and store an invoice's files (worker step).",
  input: 'InvoiceIdInput',
  output: 'GeneratedDocuments',
  callers: ['system'],
  async run({ id }, ctx) {
    const stored = await findInvoice(ctx.tx, { tenantId: ctx.caller.tenantId! }, id, { forUpdate: true });
    if (stored.invoice.documents_status === 'ready') return { id, documents_status: 'skipped', files: [] };
    const { generated } = await recordInvoiceRendering(ctx, stored.invoice, await renderInvoiceFiles(stored, ctx.log));
    return generated;
  },
});
