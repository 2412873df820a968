import type { CreditNoteIdInput } from '../../../schemas/credit-notes.js';
import { actorOf } from '../../audit/actor.js';
import { appendAuditEntry } from '../../audit/audit-trail.js';
import type { RenderedFile } from '../../documents/render.js';
import { findInvoice } from '../../invoicing/invoice-store.js';
import { defineCommand } from '../../shared/operation.js';
import { renderCreditNoteFiles, saveCreditNoteDocument } from '../credit-note-documents.js';
import { findReadableCreditNote } from '../credit-note-store.js';
import { toCreditNoteDocument } from '../to-credit-note-document.js';

export interface GeneratedCreditNoteDocuments {
  id: string;
  documents_status: 'ready' | 'failed' | 'skipped';
  files: { kind: string; byte_size: number; sha256: string }[];
}

/**
 * The document worker's step for a credit note: renders its four files from the stored credit
 * note and its invoice, stores them and marks it `ready`, with an audit entry giving each file's
 * SHA-256. Idempotent (a ready credit note is skipped); a rendering failure is recorded as
 * `failed` with its reason instead of being retried forever (rendering is pure).
 */
export const generateCreditNoteDocuments = defineCommand<CreditNoteIdInput, GeneratedCreditNoteDocuments>({
  name: 'generate_credit_note_documents',
  summary: "Render and store a credit note's files (worker step).",
  input: 'CreditNoteIdInput',
  output: 'GeneratedCreditNoteDocuments',
  callers: ['system'],
  async run({ id }, ctx) {
    const reader = { tenantId: ctx.caller.tenantId!, environment: null, subTenantId: null, companyId: null };
    const stored = await findReadableCreditNote(ctx.tx, reader, id, { forUpdate: true, includeDeleted: true });
    const c = stored.creditNote;
    if (c.documents_status === 'ready') return { id, documents_status: 'skipped', files: [] };
    let files: RenderedFile[];
    try {
      const invoice = await findInvoice(ctx.tx, { tenantId: c.tenant_id }, c.invoice_id);
      files = renderCreditNoteFiles(toCreditNoteDocument(stored, invoice));
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      ctx.log.error({ err, credit_note_id: id }, 'credit note documents could not be rendered');
      await ctx
        .tx('credit_notes')
        .where({ id })
        .update({ documents_status: 'failed', documents_error: reason.slice(0, 500), updated_at: ctx.clock.now() });
      return { id, documents_status: 'failed', files: [] };
    }
    for (const file of files) await saveCreditNoteDocument(ctx.tx, c.tenant_id, id, file);
    const now = ctx.clock.now();
    await ctx
      .tx('credit_notes')
      .where({ id })
      .update({ documents_status: 'ready', documents_error: null, updated_at: now });
    const summary = files.map((f) => ({ kind: f.kind, byte_size: f.content.length, sha256: f.sha256 }));
    await appendAuditEntry(ctx.tx, {
      tenantId: c.tenant_id,
      environment: c.environment,
      entityType: 'credit_note',
      entityId: id,
      action: 'credit_note.documents_generated',
      details: { files: summary },
      actorIp: null,
      actor: actorOf(ctx.caller),
      now,
    });
    return { id, documents_status: 'ready', files: summary };
  },
});
