import type { DownloadLink, SandboxInvoiceDownloadInput } from '../../../schemas/invoice-reading.js';
import { defineQuery } from '../../shared/operation.js';
import { issueDownloadLink } from '../invoice-files.js';

export const getSandboxInvoiceDownloadLink = defineQuery<SandboxInvoiceDownloadInput, DownloadLink>({
  name: 'get_sandbox_invoice_download_link',
  summary:
    'A link to one file of a sandbox invoice, valid 15 minutes without credentials: `pdf` (readable), `xml` (CII or UBL) or `facturx` (PDF/A-3 with the CII embedded). Files not generated yet are generated for the call (up to 200 lines; longer documents answer 409 DOCUMENT_NOT_READY with Retry-After, their job moved to the front of the document queue, until the worker has made them); 409 DOCUMENT_GENERATION_FAILED, with the reason, if their generation failed; 409 CONVERSION_REQUIRED for a format the invoice was not issued in.',
  input: 'SandboxInvoiceDownloadInput',
  output: 'DownloadLink',
  callers: ['user', 'tenant'],
  scope: 'invoices',
  // Its steps open their own short transactions: none is held while pending files are rendered.
  transactional: false,
  async run(input, ctx) {
    return issueDownloadLink(ctx, input.id, input.type);
  },
});
