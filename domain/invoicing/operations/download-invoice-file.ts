import type { InvoiceFileInput } from '../../../schemas/invoice-reading.js';
import { readLinkedFile } from '../../auth/index.js';
import { ANY_CALLER } from '../../shared/caller.js';
import type { FileOutput } from '../../shared/file-output.js';
import { defineQuery } from '../../shared/operation.js';
import { findInvoiceDocument } from '../document-store.js';
import { openDownloadLink } from '../invoice-files.js';

export const downloadInvoiceFile = defineQuery<InvoiceFileInput, FileOutput>({
  name: 'download_invoice_file',
  summary:
    'The file behind a download link, served without credentials while the link is valid (15 minutes): 410 DOWNLOAD_LINK_EXPIRED after, 403 DOWNLOAD_LINK_INVALID for an altered link or once the credential that asked for it is revoked.',
  input: 'InvoiceFileInput',
  output: 'InvoiceFile',
  callers: ANY_CALLER,
  async run(input, ctx) {
    const claims = openDownloadLink(ctx, input.token);
    const document = await readLinkedFile(ctx.tx, claims, ctx.clock.now(), () =>
      findInvoiceDocument(ctx.tx, claims.invoice_id, claims.kind),
    );
    return { content: document.content, contentType: document.content_type, filename: document.filename };
  },
});
