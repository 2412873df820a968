import type { CreditNoteFileInput } from '../../../schemas/credit-notes.js';
import { readLinkedFile } from '../../auth/index.js';
import { ANY_CALLER } from '../../shared/caller.js';
import type { FileOutput } from '../../shared/file-output.js';
import { defineQuery } from '../../shared/operation.js';
import { findCreditNoteDocument } from '../credit-note-documents.js';
import { openCreditNoteLink } from '../credit-note-files.js';

export const downloadCreditNoteFile = defineQuery<CreditNoteFileInput, FileOutput>({
  name: 'download_credit_note_file',
  summary:
    'The credit-note file behind a download link, served without credentials while the link is valid (15 minutes): 410 DOWNLOAD_LINK_EXPIRED after, 403 DOWNLOAD_LINK_INVALID for an altered link or once the credential that asked for it is revoked.',
  input: 'CreditNoteFileInput',
  output: 'CreditNoteFile',
  callers: ANY_CALLER,
  async run(input, ctx) {
    const claims = openCreditNoteLink(ctx, input.token);
    const document = await readLinkedFile(ctx.tx, claims, ctx.clock.now(), () =>
      findCreditNoteDocument(ctx.tx, claims.credit_note_id, claims.kind),
    );
    return { content: document.content, contentType: document.content_type, filename: document.filename };
  },
});
