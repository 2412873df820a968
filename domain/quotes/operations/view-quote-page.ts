import type { QuotePageView, QuoteTokenInput } from '../../../schemas/quotes.js';
import { ANY_CALLER } from '../../shared/caller.js';
import { defineCommand } from '../../shared/operation.js';
import { todayOf } from '../quote-access.js';
import { recordQuoteChange } from '../quote-changes.js';
import { quoteOfToken, redirectOf, toPageView } from '../quote-page.js';
import { updateQuote } from '../quote-store.js';

export const viewQuotePage = defineCommand<QuoteTokenInput, QuotePageView>({
  name: 'view_quote_page',
  summary:
    "What the buyer's page of a quote shows (`/quote/{token}`); the first view of a sent quote makes it `viewed` (`quote.viewed`). 404 for an unknown, revoked or expired link.",
  input: 'QuoteTokenInput',
  output: 'QuotePageView',
  callers: ANY_CALLER,
  async run(input, ctx) {
    const { quote: q } = await quoteOfToken(ctx, input.token, { forUpdate: true });
    const today = todayOf(ctx);
    if (q.status === 'sent' && q.validity_date >= today) {
      const now = ctx.clock.now();
      const viewed = await updateQuote(ctx.tx, q.id, { status: 'viewed', viewed_at: now }, now);
      await recordQuoteChange(ctx, viewed, 'viewed');
      return toPageView(viewed, today);
    }
    const outcome = q.status === 'refused' ? 'refused' : ['accepted', 'converted'].includes(q.status) ? 'signed' : null;
    return toPageView(q, today, redirectOf(q, outcome, q.status === 'refused' ? q.status_reason : null));
  },
});
