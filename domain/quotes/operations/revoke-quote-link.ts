import type { Quote, QuoteIdInput } from '../../../schemas/quotes.js';
import { defineCommand } from '../../shared/operation.js';
import { quoteOf, viewOf } from '../quote-access.js';
import { recordQuoteChange } from '../quote-changes.js';
import { updateQuote } from '../quote-store.js';

export const revokeQuoteLink = defineCommand<QuoteIdInput, Quote>({
  name: 'revoke_quote_link',
  summary:
    'Revoke the public link of a quote: the buyer page answers 404 from now on. Regenerate one to share the quote again. Revoking twice changes nothing.',
  input: 'QuoteIdInput',
  output: 'Quote',
  callers: ['tenant'],
  scope: 'invoices',
  async run(input, ctx) {
    const stored = await quoteOf(ctx, input, { forUpdate: true });
    const q = stored.quote;
    if (!q.public_token_hash || q.public_link_revoked_at) return viewOf(ctx, stored);
    const now = ctx.clock.now();
    const updated = await updateQuote(ctx.tx, q.id, { public_link_revoked_at: now }, now);
    await recordQuoteChange(ctx, updated, 'link_revoked');
    return viewOf(ctx, { ...stored, quote: updated });
  },
});
