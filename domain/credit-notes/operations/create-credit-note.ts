import type { CreateCreditNoteInput } from '../../../schemas/credit-notes.js';
import { invoiceReaderOf } from '../../invoicing/index.js';
import { defineCommand } from '../../shared/operation.js';
import type { CreditNoteView } from '../credit-note-view.js';
import { issueCreditNote } from '../issue-credit-note.js';

export const createCreditNote = defineCommand<CreateCreditNoteInput, CreditNoteView>({
  name: 'create_credit_note',
  summary:
    "Create a draft credit note against one of your invoices, in the invoice's environment: each item credits an invoice line, never beyond what remains creditable per line and in total (422 CREDIT_EXCEEDS_REMAINING). Charged 0.04 EUR in production, recorded in the fiscal ledger; its CII, UBL, Factur-X and PDF files follow shortly.",
  input: 'CreateCreditNoteInput',
  output: 'CreditNote',
  callers: ['user', 'tenant'],
  scope: 'invoices',
  async run(input, ctx) {
    return issueCreditNote(ctx, invoiceReaderOf(ctx.caller), input);
  },
});
