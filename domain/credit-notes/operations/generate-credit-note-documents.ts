import type { CreditNoteIdInput, GeneratedCreditNoteDocuments } from '../../../schemas/credit-notes.js';
import { findInvoice } from '../../invoicing/index.js';
import { defineCommand } from '../../shared/operation.js';
import { findReadableCreditNote } from '../credit-note-store.js';
import { recordCreditNoteRendering, renderCreditNote } from '../generated-credit-note-documents.js';

/**
 * The document worker's step for a credit note: renders its four files from the stored credit
 * note and its invoice, stores them and marks it `ready`, with an audit entry giving each file's
 * SHA-256. Idempotent (a ready credit note is skipped, whoever made its files: a download renders
 * them on demand when it comes first); a rendering failure is recorded as `failed` with its reason
 * instead of being retried forever (rendering is pure).
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
    const invoice = () => findInvoice(ctx.tx, { tenantId: c.tenant_id }, c.invoice_id);
    const { generated } = await recordCreditNoteRendering(ctx, c, await renderCreditNote(stored, invoice, ctx.log));
    return generated;
  },
});
