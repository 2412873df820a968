import type { ConvertQuoteToBalanceInput, Quote } from '../../../schemas/quotes.js';
import { findInvoiceRow, type InvoiceView } from '../../invoicing/index.js';
import { defineCommand } from '../../shared/operation.js';
import { quoteOf, viewOf } from '../quote-access.js';
import { convertToBalance } from '../quote-conversion.js';

export interface QuoteConversionView {
  invoice: InvoiceView;
  quote: Quote;
}

export const convertQuoteToBalance = defineCommand<ConvertQuoteToBalanceInput, QuoteConversionView>({
  name: 'convert_quote_to_balance',
  summary:
    "Issue the balance invoice (type 380) of an accepted quote: at each VAT rate the quote's amount less the deposits, referencing the deposit invoices (EN 16931 BG-3). An ordinary invoice; once only (a second call answers 409 INVALID_STATE).",
  input: 'ConvertQuoteToBalanceInput',
  output: 'QuoteConversion',
  callers: ['tenant'],
  scope: 'invoices',
  async run(input, ctx) {
    const stored = await quoteOf(ctx, input, { forUpdate: true });
    const deposits = [];
    for (const row of stored.invoices.filter((i) => i.kind === 'deposit')) {
      const invoice = await findInvoiceRow(ctx.tx, { tenantId: stored.quote.tenant_id }, row.invoice_id);
      deposits.push({ id: invoice.id, number: invoice.invoice_number, issue_date: invoice.issue_date });
    }
    const { invoice, quote } = await convertToBalance(ctx, stored, input, deposits);
    return { invoice, quote: viewOf(ctx, quote) };
  },
});
