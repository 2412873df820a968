import type { BillingUsage, BillingUsageInput, BillingUsageMonth } from '../../../schemas/billing-usage.js';
import { AppError } from '../../shared/app-error.js';
import { defineQuery } from '../../shared/operation.js';
import { tenantWideCaller } from '../../tenants/index.js';
import { addMonths, parisMonth } from '../billing-period.js';
import { billingFigures, VOLUME_DISCOUNT_TIERS } from '../billing-totals.js';
import { moneyToJson } from '../money.js';
import { PRICE_CURRENCY } from '../pricing.js';
import { emptyUsage, type MonthUsage, monthlyUsage } from '../usage-store.js';

const kind = (figures: {
  count: number;
  unitPrice: { toNumber(): number };
  amount: { toFixed(n: number): string };
}) => ({
  count: figures.count,
  unit_price: figures.unitPrice.toNumber(),
  amount: moneyToJson(figures.amount.toFixed(2)),
});

function monthView(usage: MonthUsage, current: boolean, billingInvoiceId: string | null): BillingUsageMonth {
  const f = billingFigures(usage);
  return {
    month: usage.month,
    current,
    invoices: kind(f.invoices),
    signatures: kind(f.signatures),
    credit_notes: kind(f.creditNotes),
    gross_amount: moneyToJson(f.grossAmount.toFixed(2)),
    discount_tier: f.tier ? { above: f.tier.above, rate: f.tier.rate } : null,
    discount_amount: moneyToJson(f.discountAmount.toFixed(2)),
    total_ht: moneyToJson(f.totalHt.toFixed(2)),
    vat_rate: f.vatRate.toNumber(),
    total_vat: moneyToJson(f.totalVat.toFixed(2)),
    total_ttc: moneyToJson(f.totalTtc.toFixed(2)),
    billing_invoice_id: billingInvoiceId,
  };
}

export const getBillingUsage = defineQuery<BillingUsageInput, BillingUsage>({
  name: 'get_billing_usage',
  summary:
    "The tenant's paid production usage per month (Europe/Paris), newest first: invoices, signatures and credit notes with their counts and amounts, the volume discount tier reached, VAT and totals, and the month's billing invoice once issued. The current month's figures are so far.",
  input: 'BillingUsageInput',
  output: 'BillingUsage',
  callers: ['tenant'],
  async run(input, ctx) {
    const { tenantId } = tenantWideCaller(ctx.caller, 'get_billing_usage');
    const current = parisMonth(ctx.clock.now());
    if (input.month && input.month > current) {
      throw AppError.validation({ month: [`must not be after the current month (${current})`] });
    }
    const to = input.month ?? current;
    const from = input.month ?? addMonths(current, 1 - (input.months ?? 12));
    const usage = await monthlyUsage(ctx.tx, tenantId, from, to);
    const invoices = await ctx
      .tx('billing_invoices')
      .where({ tenant_id: tenantId })
      .whereBetween('period', [from, to])
      .select<{ id: string; period: string }[]>('id', 'period');
    const invoiceOf = new Map(invoices.map((i) => [i.period, i.id]));
    const months: BillingUsageMonth[] = [];
    for (let month = to; month >= from; month = addMonths(month, -1)) {
      months.push(monthView(usage.get(month) ?? emptyUsage(month), month === current, invoiceOf.get(month) ?? null));
    }
    return {
      currency: PRICE_CURRENCY,
      months,
      discount_tiers: VOLUME_DISCOUNT_TIERS.map((tier) => ({ above: tier.above, rate: tier.rate })),
    };
  },
});
