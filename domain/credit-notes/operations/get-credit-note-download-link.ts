import type { CreditNoteDownloadInput } from '../../../schemas/credit-notes.js';
import type { DownloadLink } from '../../../schemas/invoice-reading.js';
import { AppError } from '../../shared/app-error.js';
import { defineQuery } from '../../shared/operation.js';
import { assertDocumentsReady, signCreditNoteLink } from '../credit-note-files.js';
import { creditNoteFilesOnDemand } from '../credit-note-files-on-demand.js';

export const downloadCreditNote = defineQuery<CreditNoteDownloadInput, DownloadLink>({
  name: 'download_credit_note',
  summary:
    'A link to a file of a credit note, valid 15 minutes without credentials: `pdf` (default, readable), `facturx` (Factur-X PDF/A-3), `ubl` (UBL 2.1 CreditNote) or `cii` (CII, type 381). Files not generated yet are generated for the call (up to 200 lines; longer documents answer 409 DOCUMENT_NOT_READY with Retry-After until the worker has made them); 409 DOCUMENT_GENERATION_FAILED, with the reason, if their generation failed.',
  input: 'CreditNoteDownloadInput',
  output: 'DownloadLink',
  callers: ['user', 'tenant'],
  scope: 'invoices',
  // Its steps open their own short transactions: none is held while pending files are rendered.
  transactional: false,
  async run(input, ctx) {
    const { creditNote, documents } = await creditNoteFilesOnDemand(ctx, input.id);
    assertDocumentsReady(creditNote);
    const kind = input.type ?? 'pdf';
    if (!documents.some((d) => d.kind === kind)) {
      throw new AppError('FILE_NOT_FOUND', `Credit note ${creditNote.credit_note_number} has no ${kind} file.`);
    }
    return signCreditNoteLink(ctx, creditNote, kind);
  },
});
