import type { CreditNoteIdInput } from '../../../schemas/credit-notes.js';
import { invoiceReaderOf } from '../../invoicing/index.js';
import { defineQuery } from '../../shared/operation.js';
import { findReadableCreditNote } from '../credit-note-store.js';
import { type CreditNoteView, toCreditNoteView } from '../credit-note-view.js';

export const getCreditNote = defineQuery<CreditNoteIdInput, CreditNoteView>({
  name: 'get_credit_note',
  summary:
    'Read one credit note with its items. A deleted draft, or an id of another account or of the other environment, answers 404.',
  input: 'CreditNoteIdInput',
  output: 'CreditNote',
  callers: ['user', 'tenant'],
  scope: 'invoices',
  async run(input, ctx) {
    return toCreditNoteView(await findReadableCreditNote(ctx.tx, invoiceReaderOf(ctx.caller), input.id));
  },
});
