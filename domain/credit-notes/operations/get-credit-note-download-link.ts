import type { CreditNoteDownloadInput } from '../../../schemas/credit-notes.js';
import type { DownloadLink } from '../../../schemas/invoice-reading.js';
import { invoiceReaderOf } from '../../invoicing/invoice-queries.js';
import { AppError } from '../../shared/app-error.js';
import { defineQuery } from '../../shared/operation.js';
import { listCreditNoteDocuments } from '../credit-note-documents.js';
import { assertDocumentsReady, signCreditNoteLink } from '../credit-note-files.js';
import { findReadableCreditNote } from '../credit-note-store.js';

export const downloadCreditNote = defineQuery<CreditNoteDownloadInput, DownloadLink>({
  name: 'download_credit_note',
  summary:
    'A link to a file of a credit note, valid 15 minutes without credentials: `pdf` (default, readable), `facturx` (Factur-X PDF/A-3), `ubl` (UBL 2.1 CreditNote) or `cii` (CII, type 381). 409 DOCUMENT_NOT_READY while the files are generated: retry shortly.',
  input: 'CreditNoteDownloadInput',
  output: 'DownloadLink',
  callers: ['user', 'tenant'],
  scope: 'invoices',
  async run(input, ctx) {
    const { creditNote } = await findReadableCreditNote(ctx.tx, invoiceReaderOf(ctx.caller), input.id);
    assertDocumentsReady(creditNote);
    const kind = input.type ?? 'pdf';
    const documents = await listCreditNoteDocuments(ctx.tx, creditNote.id);
    if (!documents.some((d) => d.kind === kind)) {
      throw new AppError('FILE_NOT_FOUND', `Credit note ${creditNote.credit_note_number} has no ${kind} file.`);
    }
    return signCreditNoteLink(ctx, creditNote, kind);
  },
});
