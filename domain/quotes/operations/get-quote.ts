import type { Quote, QuoteIdInput } from '../../../schemas/quotes.js';
import { defineQuery } from '../../shared/operation.js';
import { quoteOf, viewOf } from '../quote-access.js';

export const getQuote = defineQuery<QuoteIdInput, Quote>({
  name: 'get_quote',
  summary: "Read a sub-tenant's quote: lines, totals, status, the buyer's answer, its public link and its invoices.",
  input: 'QuoteIdInput',
  output: 'Quote',
  callers: ['tenant'],
  scope: 'invoices',
  async run(input, ctx) {
    return viewOf(ctx, await quoteOf(ctx, input));
  },
});
