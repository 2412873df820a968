import type { QuoteJobInput, QuoteMail } from '../../../schemas/quotes.js';
import { moneyToJson } from '../../billing/index.js';
import { defineQuery } from '../../shared/operation.js';
import { publicUrlOf } from '../quote-link.js';
import { findQuoteById } from '../quote-store.js';

export const getQuoteMail = defineQuery<QuoteJobInput, QuoteMail>({
  name: 'get_quote_mail',
  summary:
    "What the `send-quote-mail` job mails to a quote's buyer: its link and figures. Only a production quote still sent or viewed, with a buyer e-mail and a live link, is mailed (sandbox quotes never are).",
  input: 'QuoteJobInput',
  output: 'QuoteMail',
  callers: ['system'],
  async run(input, ctx) {
    const { quote: q } = await findQuoteById(ctx.tx, input.quote_id);
    const url = publicUrlOf(ctx.deps.config, q, ctx.clock.now());
    const to = q.content.buyer_email ?? null;
    return {
      send: q.environment === 'production' && ['sent', 'viewed'].includes(q.status) && to !== null && url !== null,
      to,
      quote_number: q.quote_number,
      seller_name: q.content.seller_name,
      buyer_name: q.buyer_name,
      public_url: url,
      validity_date: q.validity_date,
      total_ttc: moneyToJson(q.total_ttc),
      currency: q.currency,
    };
  },
});
