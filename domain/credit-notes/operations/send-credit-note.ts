import type { CreditNoteIdInput } from '../../../schemas/credit-notes.js';
import { actorOf, appendAuditEntry } from '../../audit/index.js';
import { invoiceReaderOf } from '../../invoicing/index.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import type { CreditNoteRow } from '../credit-note-row.js';
import { findReadableCreditNote } from '../credit-note-store.js';
import { type CreditNoteView, toCreditNoteView } from '../credit-note-view.js';

export const sendCreditNote = defineCommand<CreditNoteIdInput, CreditNoteView>({
  name: 'send_credit_note',
  summary:
    'Send a draft credit note: it becomes `sent`, irreversibly, and immutable from then on (it can no longer be deleted). Emits `credit_note.sent`. Sending it again answers 409 INVALID_STATE.',
  input: 'CreditNoteIdInput',
  output: 'CreditNote',
  callers: ['user', 'tenant'],
  scope: 'invoices',
  async run(input, ctx) {
    // Locked: a concurrent send or delete waits, then sees the status this one leaves.
    const stored = await findReadableCreditNote(ctx.tx, invoiceReaderOf(ctx.caller), input.id, { forUpdate: true });
    const c = stored.creditNote;
    if (c.status !== 'draft') {
      throw new AppError(
        'INVALID_STATE',
        `Credit note ${c.credit_note_number} is already sent: sending is irreversible.`,
        {
          body: { status: c.status },
        },
      );
    }
    const now = ctx.clock.now();
    const [sent] = await ctx
      .tx('credit_notes')
      .where({ id: c.id })
      .update({ status: 'sent', sent_at: now, updated_at: now })
      .returning<CreditNoteRow[]>('*');
    await appendAuditEntry(ctx.tx, {
      tenantId: c.tenant_id,
      environment: c.environment,
      entityType: 'credit_note',
      entityId: c.id,
      action: 'credit_note.sent',
      details: { credit_note_number: c.credit_note_number, previous_status: c.status },
      actorIp: ctx.caller.ip ?? null,
      actor: actorOf(ctx.caller),
      now,
    });
    await ctx.events.emit(
      'credit_note.sent',
      {
        id: c.id,
        credit_note_number: c.credit_note_number,
        invoice_id: c.invoice_id,
        status: 'sent',
        sent_at: now.toISOString(),
        sub_tenant_id: c.sub_tenant_id,
      },
      { tenantId: c.tenant_id, environment: c.environment },
    );
    return toCreditNoteView({ ...stored, creditNote: sent });
  },
});
