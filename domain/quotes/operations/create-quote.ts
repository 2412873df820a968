import type { CreateQuoteInput, Quote } from '../../../schemas/quotes.js';
import { actorOf } from '../../audit/index.js';
import { defineCommand } from '../../shared/operation.js';
import { quoteOwnerOf, viewOf } from '../quote-access.js';
import { contentOf, prepareQuote } from '../quote-body.js';
import { recordQuoteChange } from '../quote-changes.js';
import type { QuoteRow } from '../quote-row.js';
import { nextQuoteNumber } from '../quote-store.js';

export const createQuote = defineCommand<CreateQuoteInput, Quote>({
  name: 'create_quote',
  summary:
    "Create a draft quote for one of the tenant's sub-tenants, numbered DEV-YYYY-NNNN from the sub-tenant's own sequence (no gaps). Parties and lines follow the rules of an invoice body; totals are computed. Emits `quote.created`.",
  input: 'CreateQuoteInput',
  output: 'Quote',
  callers: ['tenant'],
  scope: 'invoices',
  async run(input, ctx) {
    const owner = await quoteOwnerOf(ctx, input.subTenantId);
    const content = contentOf(input);
    const prepared = prepareQuote(content);
    const now = ctx.clock.now();
    const [quote] = await ctx
      .tx('quotes')
      .insert({
        tenant_id: owner.tenantId,
        sub_tenant_id: owner.subTenantId,
        environment: owner.environment,
        quote_number: await nextQuoteNumber(ctx.tx, owner, content.issue_date),
        issue_date: content.issue_date,
        validity_date: content.validity_date,
        currency: prepared.currency,
        buyer_name: prepared.buyerName,
        content,
        total_ht: prepared.totalHt.toFixed(2),
        total_tax: prepared.totalTax.toFixed(2),
        total_ttc: prepared.totalTtc.toFixed(2),
        created_by: actorOf(ctx.caller),
        created_at: now,
        updated_at: now,
      })
      .returning<QuoteRow[]>('*');
    await recordQuoteChange(ctx, quote, 'created');
    return viewOf(ctx, { quote, invoices: [] });
  },
});
