import type { Quote, QuoteListInput } from '../../../schemas/quotes.js';
import { defineQuery } from '../../shared/operation.js';
import type { Page } from '../../shared/pagination.js';
import { quoteOwnerOf, viewOf } from '../quote-access.js';
import { listQuotePage } from '../quote-store.js';

export const listQuotes = defineQuery<QuoteListInput, Page<Quote>>({
  name: 'list_quotes',
  summary: "List one sub-tenant's quotes in the key's environment, newest first, by status or text (number, buyer).",
  input: 'QuoteListInput',
  output: 'QuotePage',
  callers: ['tenant'],
  scope: 'invoices',
  async run(input, ctx) {
    const owner = await quoteOwnerOf(ctx, input.subTenantId);
    const page = await listQuotePage(ctx.tx, owner, input);
    return { ...page, data: page.data.map((stored) => viewOf(ctx, stored)) };
  },
});
