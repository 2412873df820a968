import type { QuotePageView, RefuseQuoteInput } from '../../../schemas/quotes.js';
import { ANY_CALLER } from '../../shared/caller.js';
import { defineCommand } from '../../shared/operation.js';
import { todayOf } from '../quote-access.js';
import { recordQuoteChange } from '../quote-changes.js';
import { assertAnswerable, quoteOfToken, redirectOf, toPageView } from '../quote-page.js';
import { updateQuote } from '../quote-store.js';

export const refuseQuote = defineCommand<RefuseQuoteInput, QuotePageView>({
  name: 'refuse_quote',
  summary:
    'The buyer refuses a quote on its public page, optionally saying why; the IP address and time are recorded and the quote becomes `refused` (`quote.refused`). 409 once answered, expired or cancelled.',
  input: 'RefuseQuoteInput',
  output: 'QuotePageView',
  callers: ANY_CALLER,
  async run(input, ctx) {
    const { quote: q } = await quoteOfToken(ctx, input.token, { forUpdate: true });
    const today = todayOf(ctx);
    assertAnswerable(q, today);
    const now = ctx.clock.now();
    const reason = input.reason?.trim() ?? null;
    const refused = await updateQuote(
      ctx.tx,
      q.id,
      { status: 'refused', status_reason: reason, answered_at: now, viewed_at: q.viewed_at ?? now },
      now,
    );
    await recordQuoteChange(ctx, refused, 'refused', { reason, ip: ctx.caller.ip ?? null });
    return toPageView(refused, today, redirectOf(refused, 'refused', reason));
  },
});
