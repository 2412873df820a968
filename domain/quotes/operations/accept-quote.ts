import type { AcceptQuoteInput, QuotePageView } from '../../../schemas/quotes.js';
import { ANY_CALLER } from '../../shared/caller.js';
import { defineCommand } from '../../shared/operation.js';
import { todayOf } from '../quote-access.js';
import { recordQuoteChange } from '../quote-changes.js';
import { assertAnswerable, quoteOfToken, redirectOf, toPageView } from '../quote-page.js';
import type { QuoteSignature } from '../quote-row.js';
import { updateQuote } from '../quote-store.js';

export const acceptQuote = defineCommand<AcceptQuoteInput, QuotePageView>({
  name: 'accept_quote',
  summary:
    'The buyer accepts a quote on its public page by typing their name: the name, e-mail, IP address, browser and time are recorded and the quote becomes `accepted` (`quote.accepted`). 409 once answered, expired or cancelled.',
  input: 'AcceptQuoteInput',
  output: 'QuotePageView',
  callers: ANY_CALLER,
  async run(input, ctx) {
    const { quote: q } = await quoteOfToken(ctx, input.token, { forUpdate: true });
    const today = todayOf(ctx);
    assertAnswerable(q, today);
    const now = ctx.clock.now();
    const signature: QuoteSignature = {
      signer_name: input.signer_name.trim(),
      signer_email: input.signer_email ?? null,
      ip: ctx.caller.ip ?? null,
      user_agent: ctx.caller.userAgent ?? null,
      signed_at: now.toISOString(),
    };
    const accepted = await updateQuote(
      ctx.tx,
      q.id,
      { status: 'accepted', signature, answered_at: now, viewed_at: q.viewed_at ?? now },
      now,
    );
    await recordQuoteChange(ctx, accepted, 'accepted', { signature });
    return toPageView(accepted, today, redirectOf(accepted, 'signed'));
  },
});
