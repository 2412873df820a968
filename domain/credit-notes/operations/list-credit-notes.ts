import type { CreditNoteListInput } from '../../../schemas/credit-notes.js';
import { invoiceReaderOf } from '../../invoicing/index.js';
import { defineQuery } from '../../shared/operation.js';
import type { Page } from '../../shared/pagination.js';
import { listCreditNotePage } from '../credit-note-store.js';
import { type CreditNoteView, toCreditNoteView } from '../credit-note-view.js';

export const listCreditNotes = defineQuery<CreditNoteListInput, Page<CreditNoteView>>({
  name: 'list_credit_notes',
  summary:
    'List credit notes newest first, with their items. A key reads its own environment only; a dashboard token both. Filters: status (draft, sent), invoice_id, type (partial, total). Paginated: per_page default 15, at most 100.',
  input: 'CreditNoteListInput',
  output: 'CreditNotePage',
  callers: ['user', 'tenant'],
  scope: 'invoices',
  async run(input, ctx) {
    const page = await listCreditNotePage(ctx.tx, invoiceReaderOf(ctx.caller), input);
    return { ...page, data: page.data.map(toCreditNoteView) };
  },
});
