import type { CreditNoteDownloadInput } from '../../../schemas/credit-notes.js';
import type { DownloadLink } from '../../../schemas/invoice-reading.js';
import { AppError } from '../../shared/app-error.js';
import { execute } from '../../shared/execute.js';
import type { FileOutput } from '../../shared/file-output.js';
import { defineQuery } from '../../shared/operation.js';
import { readCreditNoteFile } from '../credit-note-file-bytes.js';
import { assertDocumentsReady, signCreditNoteLink } from '../credit-note-files.js';
import { creditNoteFilesOnDemand } from '../credit-note-files-on-demand.js';

export const downloadCreditNote = defineQuery<CreditNoteDownloadInput, FileOutput | DownloadLink>({
  name: 'download_credit_note',
  summary:
    'A file of a credit note, its bytes in the response: `pdf` (default, the readable PDF, as the specification says), `facturx` (Factur-X PDF/A-3), `ubl` (UBL 2.1 CreditNote) or `cii` (CII, type 381). With `link=true`, a JSON `{url, expires_at}` instead: a link to the file, valid 15 minutes without credentials. Files not generated yet are generated for the call (up to 200 lines; longer documents answer 409 DOCUMENT_NOT_READY with Retry-After, their job moved to the front of the document queue, until the worker has made them); 409 DOCUMENT_GENERATION_FAILED, with the reason, if their generation failed.',
  input: 'CreditNoteDownloadInput',
  output: 'CreditNoteFile',
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
    if (input.link) return signCreditNoteLink(ctx, creditNote, kind);
    return execute(readCreditNoteFile, { id: input.id, type: kind }, ctx.caller, ctx.deps);
  },
});
