import type { InvoiceIdInput } from '../../../schemas/invoices.js';
import { actorOf } from '../../audit/actor.js';
import { renderFormat } from '../../documents/render.js';
import { defineCommand } from '../../shared/operation.js';
import { saveInvoiceDocument } from '../document-store.js';
import { auditInvoice } from '../invoice-audit.js';
import { findInvoice } from '../invoice-store.js';
import { toInvoiceDocument } from '../to-document.js';

export interface GeneratedDocuments {
  id: string;
  documents_status: 'ready' | 'failed' | 'skipped';
  files: { kind: string; byte_size: number; sha256: string }[];
}

/**
 * The document worker's step: renders the invoice's files from the stored invoice (its format,
 * plus the readable PDF or, for Factur-X, the embedded CII), stores them and marks the invoice
 * `ready`, with an audit entry giving each file's SHA-256. Idempotent: an invoice already ready is
 * skipped. Rendering is pure, so a failure would repeat: the invoice is marked `failed` with the
 * reason, and downloads say so, instead of retrying forever.
 */
export const generateInvoiceDocuments = defineCommand<InvoiceIdInput, GeneratedDocuments>({
  name: 'generate_invoice_documents',
  summary: "Render and store an invoice's files (worker step).",
  input: 'InvoiceIdInput',
  output: 'GeneratedDocuments',
  callers: ['system'],
  async run({ id }, ctx) {
    const stored = await findInvoice(ctx.tx, { tenantId: ctx.caller.tenantId! }, id, { forUpdate: true });
    const { invoice } = stored;
    if (invoice.documents_status === 'ready') return { id, documents_status: 'skipped', files: [] };
    let files: ReturnType<typeof renderFormat>;
    try {
      files = renderFormat(toInvoiceDocument(stored), invoice.output_format, invoice.profile);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      ctx.log.error({ err, invoice_id: id }, 'invoice documents could not be rendered');
      await ctx
        .tx('invoices')
        .where({ id })
        .update({ documents_status: 'failed', documents_error: reason.slice(0, 500), updated_at: ctx.clock.now() });
      return { id, documents_status: 'failed', files: [] };
    }
    for (const f of files) {
      await saveInvoiceDocument(ctx.tx, {
        tenantId: invoice.tenant_id,
        invoiceId: id,
        kind: f.kind,
        contentType: f.contentType,
        filename: f.filename,
        content: f.content,
      });
    }
    const now = ctx.clock.now();
    await ctx
      .tx('invoices')
      .where({ id })
      .update({ documents_status: 'ready', documents_error: null, updated_at: now });
    const summary = files.map((f) => ({ kind: f.kind, byte_size: f.content.length, sha256: f.sha256 }));
    await auditInvoice(ctx.tx, invoice, {
      action: 'invoice.documents_generated',
      details: { output_format: invoice.output_format, profile: invoice.profile, files: summary },
      actorIp: null,
      actor: actorOf(ctx.caller),
      now,
    });
    return { id, documents_status: 'ready', files: summary };
  },
});
