import type { DownloadLink, InvoiceDownloadInput } from '../../../schemas/invoice-reading.js';
import { defineQuery } from '../../shared/operation.js';
import { issueDownloadLink } from '../invoice-files.js';

export const getInvoiceDownloadLink = defineQuery<InvoiceDownloadInput, DownloadLink>({
  name: 'get_invoice_download_link',
  summary:
    'A link to one file of an invoice, valid 15 minutes without credentials: `original` (the uploaded file), `converted` (its Factur-X, UBL or CII file) or `pdf` (readable). Files not generated yet are generated for the call (up to 200 lines; longer documents answer 409 DOCUMENT_NOT_READY with Retry-After, their job moved to the front of the document queue, until the worker has made them); 409 DOCUMENT_GENERATION_FAILED, with the reason, if their generation failed.',
  input: 'InvoiceDownloadInput',
  output: 'DownloadLink',
  callers: ['user', 'tenant'],
  scope: 'invoices',
  // Its steps open their own short transactions: none is held while pending files are rendered.
  transactional: false,
  async run(input, ctx) {
    return issueDownloadLink(ctx, input.id, input.type);
  },
});
