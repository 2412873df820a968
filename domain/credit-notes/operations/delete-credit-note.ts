import type { CreditNoteIdInput } from '../../../schemas/credit-notes.js';
import { actorOf, appendAuditEntry } from '../../audit/index.js';
import { invoiceReaderOf } from '../../invoicing/index.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import type { CreditNoteRow } from '../credit-note-row.js';
import { findReadableCreditNote } from '../credit-note-store.js';
import { type CreditNoteView, toCreditNoteView } from '../credit-note-view.js';

export const deleteCreditNote = defineCommand<CreditNoteIdInput, CreditNoteView>({
  name: 'delete_credit_note',
  summary:
    'Delete a draft credit note: it disappears from reads and lists, and its amount becomes creditable again. Its audit trail and fiscal-ledger entry are kept (the ledger is append-only). A sent credit note cannot be deleted: 403 CREDIT_NOTE_IMMUTABLE.',
  input: 'CreditNoteIdInput',
  output: 'CreditNote',
  callers: ['user', 'tenant'],
  scope: 'invoices',
  async run(input, ctx) {
    const stored = await findReadableCreditNote(ctx.tx, invoiceReaderOf(ctx.caller), input.id, { forUpdate: true });
    const c = stored.creditNote;
    if (c.status !== 'draft') {
      throw new AppError(
        'CREDIT_NOTE_IMMUTABLE',
        `Credit note ${c.credit_note_number} is ${c.status}: only a draft can be deleted. Issue another credit note or an invoice to correct it.`,
        { body: { status: c.status } },
      );
    }
    // No need for the invoice's lock: a creation that misses this deletion only sees less left to credit.
    const now = ctx.clock.now();
    const [deleted] = await ctx
      .tx('credit_notes')
      .where({ id: c.id })
      .update({ deleted_at: now, updated_at: now })
      .returning<CreditNoteRow[]>('*');
    await appendAuditEntry(ctx.tx, {
      tenantId: c.tenant_id,
      environment: c.environment,
      entityType: 'credit_note',
      entityId: c.id,
      action: 'credit_note.deleted',
      details: { credit_note_number: c.credit_note_number, invoice_id: c.invoice_id, total_ht: c.total_ht },
      actorIp: ctx.caller.ip ?? null,
      actor: actorOf(ctx.caller),
      now,
    });
    return toCreditNoteView({ ...stored, creditNote: deleted });
  },
});
