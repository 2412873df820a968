import type { QuoteExpiryResult, QuoteJobInput } from '../../../schemas/quotes.js';
import { defineCommand } from '../../shared/operation.js';
import { todayOf } from '../quote-access.js';
import { recordQuoteChange } from '../quote-changes.js';
import { findQuoteById, updateQuote } from '../quote-store.js';

export const expireQuote = defineCommand<QuoteJobInput, QuoteExpiryResult>({
  name: 'expire_quote',
  summary:
    'The job queued at a quote’s validity date: a quote still sent or viewed after that day becomes `expired` (`quote.expired`). Anything else (answered, cancelled, a validity date moved later) is left alone: running it twice changes nothing.',
  input: 'QuoteJobInput',
  output: 'QuoteExpiryResult',
  callers: ['system'],
  async run(input, ctx) {
    const { quote: q } = await findQuoteById(ctx.tx, input.quote_id, { forUpdate: true });
    if (!['sent', 'viewed'].includes(q.status) || q.validity_date >= todayOf(ctx)) return { expired: false };
    const now = ctx.clock.now();
    const expired = await updateQuote(ctx.tx, q.id, { status: 'expired' }, now);
    await recordQuoteChange(ctx, expired, 'expired', { validity_date: q.validity_date });
    return { expired: true };
  },
});
