import type { Quote, UpdateQuoteInput } from '../../../schemas/quotes.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { quoteOf, viewOf } from '../quote-access.js';
import { contentOf, prepareQuote } from '../quote-body.js';
import { recordQuoteChange } from '../quote-changes.js';
import { updateQuote as writeQuote } from '../quote-store.js';

/** Statuses in which a quote's content is locked (origin-notes item 6). */
export const LOCKED_STATUSES = ['accepted', 'converted', 'cancelled'] as const;

export const updateQuote = defineCommand<UpdateQuoteInput, Quote>({
  name: 'update_quote',
  summary:
    'Replace the body of a quote not yet accepted, converted or cancelled (409 INVALID_STATE otherwise). A quote already sent, viewed, refused or expired goes back to `draft`: send it again. The number stays. Emits `quote.updated`.',
  input: 'UpdateQuoteInput',
  output: 'Quote',
  callers: ['tenant'],
  scope: 'invoices',
  async run(input, ctx) {
    const stored = await quoteOf(ctx, input, { forUpdate: true });
    const q = stored.quote;
    if ((LOCKED_STATUSES as readonly string[]).includes(q.status)) {
      throw new AppError('INVALID_STATE', `Quote ${q.quote_number} is ${q.status}: it can no longer be changed.`, {
        body: { status: q.status },
      });
    }
    const content = contentOf(input);
    const prepared = prepareQuote(content);
    if (content.issue_date.slice(0, 4) !== q.issue_date.slice(0, 4)) {
      throw AppError.validation({
        issue_date: [`must stay in ${q.issue_date.slice(0, 4)}, the year of the quote's number`],
      });
    }
    const updated = await writeQuote(
      ctx.tx,
      q.id,
      {
        status: 'draft',
        status_reason: null,
        issue_date: content.issue_date,
        validity_date: content.validity_date,
        currency: prepared.currency,
        buyer_name: prepared.buyerName,
        content,
        total_ht: prepared.totalHt.toFixed(2),
        total_tax: prepared.totalTax.toFixed(2),
        total_ttc: prepared.totalTtc.toFixed(2),
        answered_at: null,
      },
      ctx.clock.now(),
    );
    await recordQuoteChange(ctx, updated, 'updated', {
      previous_status: q.status,
      total_ht: prepared.totalHt.toFixed(2),
    });
    return viewOf(ctx, { ...stored, quote: updated });
  },
});
