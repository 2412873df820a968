import type { ConvertQuoteToDepositInput } from '../../../schemas/quotes.js';
import { defineCommand } from '../../shared/operation.js';
import { quoteOf, viewOf } from '../quote-access.js';
import { convertToDeposit } from '../quote-conversion.js';
import type { QuoteConversionView } from './convert-quote-to-balance.js';

export const convertQuoteToDeposit = defineCommand<ConvertQuoteToDepositInput, QuoteConversionView>({
  name: 'convert_quote_to_deposit',
  summary:
    'Issue a deposit invoice (type 386) for an accepted quote: `percent` of its total or an `amount` excluding VAT, spread over its VAT rates. An ordinary invoice of the sub-tenant (numbered, charged, in the fiscal ledger, with its files). Repeatable; the deposits never exceed the total (422); none after the balance (409).',
  input: 'ConvertQuoteToDepositInput',
  output: 'QuoteConversion',
  callers: ['tenant'],
  scope: 'invoices',
  async run(input, ctx) {
    const stored = await quoteOf(ctx, input, { forUpdate: true });
    const { invoice, quote } = await convertToDeposit(ctx, stored, input);
    return { invoice, quote: viewOf(ctx, quote) };
  },
});
