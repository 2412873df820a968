import type { CancelQuoteInput, Quote } from '../../../schemas/quotes.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { quoteOf, viewOf } from '../quote-access.js';
import { recordQuoteChange } from '../quote-changes.js';
import { updateQuote } from '../quote-store.js';

export const cancelQuote = defineCommand<CancelQuoteInput, Quote>({
  name: 'cancel_quote',
  summary:
    'Cancel a quote with a reason: its public link stops working. A converted or already cancelled quote answers 409 INVALID_STATE (credit its invoices instead). Emits `quote.cancelled`.',
  input: 'CancelQuoteInput',
  output: 'Quote',
  callers: ['tenant'],
  scope: 'invoices',
  async run(input, ctx) {
    const stored = await quoteOf(ctx, input, { forUpdate: true });
    const q = stored.quote;
    if (q.status === 'converted' || q.status === 'cancelled') {
      throw new AppError('INVALID_STATE', `Quote ${q.quote_number} is ${q.status}: it cannot be cancelled.`, {
        body: { status: q.status },
      });
    }
    const now = ctx.clock.now();
    const updated = await updateQuote(
      ctx.tx,
      q.id,
      { status: 'cancelled', status_reason: input.reason.trim(), cancelled_at: now, public_link_revoked_at: now },
      now,
    );
    await recordQuoteChange(ctx, updated, 'cancelled', { previous_status: q.status, reason: input.reason.trim() });
    return viewOf(ctx, { ...stored, quote: updated });
  },
});
