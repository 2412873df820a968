import type { Quote, QuoteIdInput } from '../../../schemas/quotes.js';
import { actorOf } from '../../audit/index.js';
import { defineCommand } from '../../shared/operation.js';
import { quoteOf, quoteOwnerOf, todayOf, viewOf } from '../quote-access.js';
import { recordQuoteChange } from '../quote-changes.js';
import type { QuoteRow } from '../quote-row.js';
import { nextQuoteNumber } from '../quote-store.js';

const DAY = 86_400_000;
const addDays = (iso: string, days: number) =>
  new Date(Date.parse(`${iso}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

export const duplicateQuote = defineCommand<QuoteIdInput, Quote>({
  name: 'duplicate_quote',
  summary:
    'Copy a quote (any status) into a new draft of the same sub-tenant with the next number, dated today and valid for as many days as the original. Emits `quote.created`.',
  input: 'QuoteIdInput',
  output: 'Quote',
  callers: ['tenant'],
  scope: 'invoices',
  async run(input, ctx) {
    const { quote: source } = await quoteOf(ctx, input);
    const owner = await quoteOwnerOf(ctx, input.subTenantId);
    const today = todayOf(ctx);
    const days = Math.round((Date.parse(source.validity_date) - Date.parse(source.issue_date)) / DAY);
    const content = { ...source.content, issue_date: today, validity_date: addDays(today, days) };
    const now = ctx.clock.now();
    const [quote] = await ctx
      .tx('quotes')
      .insert({
        tenant_id: source.tenant_id,
        sub_tenant_id: source.sub_tenant_id,
        environment: source.environment,
        quote_number: await nextQuoteNumber(ctx.tx, owner, today),
        issue_date: content.issue_date,
        validity_date: content.validity_date,
        currency: source.currency,
        buyer_name: source.buyer_name,
        content,
        total_ht: source.total_ht,
        total_tax: source.total_tax,
        total_ttc: source.total_ttc,
        duplicated_from: source.id,
        created_by: actorOf(ctx.caller),
        created_at: now,
        updated_at: now,
      })
      .returning<QuoteRow[]>('*');
    await recordQuoteChange(ctx, quote, 'duplicated', {
      duplicated_from: source.id,
      source_number: source.quote_number,
    });
    return viewOf(ctx, { quote, invoices: [] });
  },
});
