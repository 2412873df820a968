import type { Quote, QuoteIdInput } from '../../../schemas/quotes.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { quoteOf, viewOf } from '../quote-access.js';
import { recordQuoteChange } from '../quote-changes.js';
import { newPublicLink } from '../quote-link.js';
import { updateQuote } from '../quote-store.js';

export const regenerateQuoteLink = defineCommand<QuoteIdInput, Quote>({
  name: 'regenerate_quote_link',
  summary:
    'Give a sent quote a new public link, valid 90 days from now; the old link stops working at once. A draft (send it first), cancelled or converted quote answers 409.',
  input: 'QuoteIdInput',
  output: 'Quote',
  callers: ['tenant'],
  scope: 'invoices',
  async run(input, ctx) {
    const stored = await quoteOf(ctx, input, { forUpdate: true });
    const q = stored.quote;
    if (['draft', 'cancelled', 'converted'].includes(q.status)) {
      throw new AppError('INVALID_STATE', `Quote ${q.quote_number} is ${q.status}: it has no public link to renew.`, {
        body: { status: q.status },
      });
    }
    const now = ctx.clock.now();
    const updated = await updateQuote(ctx.tx, q.id, newPublicLink(ctx.deps.config, q.id, now).columns, now);
    await recordQuoteChange(ctx, updated, 'link_regenerated', {
      public_link_expires_at: updated.public_link_expires_at,
    });
    return viewOf(ctx, { ...stored, quote: updated });
  },
});
