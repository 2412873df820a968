import type { CreditNoteDownloadInput } from '../../schemas/credit-notes.js';
import { invoiceReaderOf } from '../invoicing/index.js';
import { AppError } from '../shared/app-error.js';
import type { FileOutput } from '../shared/file-output.js';
import { defineQuery } from '../shared/operation.js';
import { findCreditNoteDocument } from './credit-note-documents.js';
import { findReadableCreditNoteRow } from './credit-note-store.js';

/**
 * The bytes of one file of a credit note the caller may read, in a read-only transaction of its
 * own (the download's last step, once its files are there).
 */
export const readCreditNoteFile = defineQuery<CreditNoteDownloadInput, FileOutput>({
  name: 'read_credit_note_file',
  summary: "One of a credit note's files, its bytes (a download step).",
  input: 'CreditNoteDownloadInput',
  output: 'CreditNoteFile',
  callers: ['user', 'tenant'],
  scope: 'invoices',
  async run({ id, type }, ctx) {
    const creditNote = await findReadableCreditNoteRow(ctx.tx, invoiceReaderOf(ctx.caller), id);
    const kind = type ?? 'pdf';
    const document = await findCreditNoteDocument(ctx.tx, creditNote.id, kind);
    if (!document) {
      throw new AppError('FILE_NOT_FOUND', `Credit note ${creditNote.credit_note_number} has no ${kind} file.`);
    }
    return { content: document.content, contentType: document.content_type, filename: document.filename };
  },
});
