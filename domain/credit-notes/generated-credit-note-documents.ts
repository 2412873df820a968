import type { GeneratedCreditNoteDocuments } from '../../schemas/credit-notes.js';
import { actorOf, appendAuditEntry } from '../audit/index.js';
import {
  failureReason,
  fileSummary,
  type RenderOutcome,
  renderOutcome,
  type StoredInvoice,
} from '../invoicing/index.js';
import type { Logger } from '../shared/logger.js';
import type { OperationContext } from '../shared/operation.js';
import { renderCreditNoteFiles, saveCreditNoteDocument } from './credit-note-documents.js';
import type { CreditNoteRow, StoredCreditNote } from './credit-note-row.js';
import { toCreditNoteDocument } from './to-credit-note-document.js';

/** A credit note's four files; `invoice` is read when called, so failing to read it is a failure too. */
export const renderCreditNote = (
  stored: StoredCreditNote,
  invoice: () => StoredInvoice | Promise<StoredInvoice>,
  log: Logger,
): Promise<RenderOutcome> =>
  renderOutcome(
    async () => renderCreditNoteFiles(toCreditNoteDocument(stored, await invoice())),
    log,
    { credit_note_id: stored.creditNote.id },
    'credit note documents could not be rendered',
  );

/**
 * Records a rendering of a credit note whose row the caller holds locked and found not ready: its
 * files, `ready` and the `credit_note.documents_generated` entry; or `failed` with the reason. The
 * worker and a download that renders on demand both record through here, under that lock, so a
 * credit note gets one set of files and one entry whoever rendered it.
 */
export async function recordCreditNoteRendering(
  ctx: OperationContext,
  c: CreditNoteRow,
  outcome: RenderOutcome,
): Promise<{ creditNote: CreditNoteRow; generated: GeneratedCreditNoteDocuments }> {
  const now = ctx.clock.now();
  if ('error' in outcome) {
    const [failed] = await ctx
      .tx('credit_notes')
      .where({ id: c.id })
      .update({ documents_status: 'failed', documents_error: failureReason(outcome), updated_at: now })
      .returning<CreditNoteRow[]>('*');
    return { creditNote: failed, generated: { id: c.id, documents_status: 'failed', files: [] } };
  }
  for (const file of outcome.files) await saveCreditNoteDocument(ctx.tx, c.tenant_id, c.id, file);
  const [ready] = await ctx
    .tx('credit_notes')
    .where({ id: c.id })
    .update({ documents_status: 'ready', documents_error: null, updated_at: now })
    .returning<CreditNoteRow[]>('*');
  const files = fileSummary(outcome.files);
  await appendAuditEntry(ctx.tx, {
    tenantId: c.tenant_id,
    environment: c.environment,
    entityType: 'credit_note',
    entityId: c.id,
    action: 'credit_note.documents_generated',
    details: { files },
    actorIp: ctx.caller.ip ?? null,
    actor: actorOf(ctx.caller),
    now,
  });
  return { creditNote: ready, generated: { id: c.id, documents_status: 'ready', files } };
}
