import type { QuoteIdInput } from '../../../schemas/quotes.js';
import { fileStem } from '../../documents/index.js';
import type { FileOutput } from '../../shared/file-output.js';
import { defineQuery } from '../../shared/operation.js';
import { quoteOf } from '../quote-access.js';
import { renderQuotePdf } from '../quote-document.js';

export const downloadQuotePdf = defineQuery<QuoteIdInput, FileOutput>({
  name: 'download_quote_pdf',
  summary: 'The quote as a readable PDF (title DEVIS, its lines, VAT breakdown, totals and validity date).',
  input: 'QuoteIdInput',
  output: 'QuoteFile',
  callers: ['tenant'],
  scope: 'invoices',
  async run(input, ctx) {
    const { quote } = await quoteOf(ctx, input);
    return {
      content: renderQuotePdf(quote),
      contentType: 'application/pdf',
      filename: `${fileStem(quote.quote_number)}.pdf`,
    };
  },
});
