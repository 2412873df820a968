import type { Quote, QuoteIdInput } from '../../../schemas/quotes.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { quoteOf, todayOf, viewOf } from '../quote-access.js';
import { recordQuoteChange } from '../quote-changes.js';
import { newPublicLink, publicUrlOf } from '../quote-link.js';
import type { QuoteRow } from '../quote-row.js';
import { updateQuote } from '../quote-store.js';

/** When a quote expires: once its validity date is over, the next day at 00:00 UTC. */
export const expiryOf = (q: Pick<QuoteRow, 'validity_date'>): Date =>
  new Date(Date.parse(`${q.validity_date}T00:00:00Z`) + 86_400_000);

export const sendQuote = defineCommand<QuoteIdInput, Quote>({
  name: 'send_quote',
  summary:
    'Send a draft quote to its buyer: it becomes `sent`, gets its public link (`public_url`, 90 days) if it has none, and expires by itself after its validity date. Sending a sent or viewed quote again keeps its status and link. A production quote with a `buyer_email` is mailed to the buyer (a sandbox one never is: give the buyer the link). Emits `quote.sent`.',
  input: 'QuoteIdInput',
  output: 'Quote',
  callers: ['tenant'],
  scope: 'invoices',
  async run(input, ctx) {
    const stored = await quoteOf(ctx, input, { forUpdate: true });
    const q = stored.quote;
    if (!['draft', 'sent', 'viewed'].includes(q.status)) {
      throw new AppError('INVALID_STATE', `Quote ${q.quote_number} is ${q.status}: it cannot be sent.`, {
        body: { status: q.status },
      });
    }
    if (q.validity_date < todayOf(ctx)) {
      throw AppError.validation({ validity_date: ['has passed: update the quote with a later validity date first'] });
    }
    const now = ctx.clock.now();
    const link = publicUrlOf(ctx.deps.config, q, now) ? {} : newPublicLink(ctx.deps.config, q.id, now).columns;
    const updated = await updateQuote(
      ctx.tx,
      q.id,
      { ...link, ...(q.status === 'draft' ? { status: 'sent', sent_at: now } : {}) },
      now,
    );
    await ctx.jobs.send(
      'expire-quote',
      { tenantId: q.tenant_id, quoteId: q.id },
      { startAfter: expiryOf(q), group: { id: q.tenant_id } },
    );
    if (q.content.buyer_email && q.environment === 'production') {
      await ctx.jobs.send('send-quote-mail', { tenantId: q.tenant_id, quoteId: q.id }, { group: { id: q.tenant_id } });
    }
    await recordQuoteChange(ctx, updated, 'sent', { public_link_expires_at: updated.public_link_expires_at });
    return viewOf(ctx, { ...stored, quote: updated });
  },
});
