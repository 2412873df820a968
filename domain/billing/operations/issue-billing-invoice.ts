import { randomUUID } from 'node:crypto';
import type { IssueBillingInvoiceInput, IssuedBillingInvoice } from '../../../schemas/billing-invoices.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { applyBalanceMovement } from '../balance-store.js';
import {
  findBillingInvoiceOfPeriod,
  insertBillingInvoice,
  lockBillingPeriod,
  nextBillingNumber,
} from '../billing-invoice-store.js';
import { toBillingInvoiceView } from '../billing-invoice-view.js';
import { buyerParty, sellerParty } from '../billing-parties.js';
import { parisDay, parisMonth } from '../billing-period.js';
import { billingFigures } from '../billing-totals.js';
import { Decimal } from '../money.js';
import { PRICE_CURRENCY } from '../pricing.js';
import { monthlyUsage } from '../usage-store.js';

const fixed = (value: Decimal) => value.toFixed(2);

/**
 * Issues a tenant's invoice for a month that has ended, once (docs/decisions/0053, 0054). In one
 * transaction: the (tenant, month) lock, so a second run waits and then finds the invoice (the
 * unique (tenant_id, period) key backs it); the month's usage from its balance debits; the next
 * number of the operator's sequence; the volume discount credited back to the balance
 * (`billing_discount`) and the VAT debited from it when it covers it (`billing_vat`); the invoice.
 * The Factur-X is rendered by the next step (generate_billing_invoice_documents), outside this
 * transaction and its sequence lock.
 */
export const issueBillingInvoice = defineCommand<IssueBillingInvoiceInput, IssuedBillingInvoice>({
  name: 'issue_billing_invoice',
  summary: "Issue one tenant's billing invoice for a month that has ended, once (worker step of the monthly run).",
  input: 'IssueBillingInvoiceInput',
  output: 'IssuedBillingInvoice',
  callers: ['system'],
  async run({ tenant_id: tenantId, month }, ctx) {
    const now = ctx.clock.now();
    if (month >= parisMonth(now)) throw AppError.validation({ month: ['must be a month that has ended'] });
    await lockBillingPeriod(ctx.tx, tenantId, month);
    const existing = await findBillingInvoiceOfPeriod(ctx.tx, tenantId, month);
    if (existing) return { outcome: 'existing' as const, billing_invoice: toBillingInvoiceView(existing) };

    const tenant = await ctx
      .tx('tenants')
      .where({ id: tenantId })
      .first<{ name: string; legal_name: string | null; siret: string | null; vat_number: string | null } | undefined>(
        'name',
        'legal_name',
        'siret',
        'vat_number',
      );
    if (!tenant) throw new AppError('NOT_FOUND', `No tenant ${tenantId}.`, { retryable: false });
    const usage = (await monthlyUsage(ctx.tx, tenantId, month, month)).get(month);
    if (!usage) return { outcome: 'nothing_to_bill' as const, billing_invoice: null };

    const seller = sellerParty(ctx.deps.config);
    const figures = billingFigures(usage);
    const issueDate = parisDay(now);
    const number = await nextBillingNumber(ctx.tx, Number(issueDate.slice(0, 4)));
    const id = randomUUID();
    const movement = { referenceType: 'billing_invoice', referenceId: id, actor: 'system', now };

    if (figures.discountAmount.greaterThan(0)) {
      const credited = await applyBalanceMovement(ctx.tx, tenantId, {
        ...movement,
        type: 'billing_discount',
        amount: figures.discountAmount,
        reason: `Volume discount ${figures.tier?.rate} % on the ${usage.invoices} invoices of ${month} (${number})`,
      });
      if (!credited) throw new AppError('NOT_FOUND', `No balance for tenant ${tenantId}.`, { retryable: false });
    }
    const vatTaken = await applyBalanceMovement(ctx.tx, tenantId, {
      ...movement,
      type: 'billing_vat',
      amount: figures.totalVat.negated(),
      reason: `VAT ${figures.vatRate.toFixed()} % of ${month} (${number})`,
      onlyIfCovered: true,
    });
    const vatDebited = vatTaken ? figures.totalVat : new Decimal(0);
    const prepaid = usage.debited.minus(figures.discountAmount).plus(vatDebited);

    const row = await insertBillingInvoice(ctx.tx, {
      id,
      tenant_id: tenantId,
      period: month,
      number,
      issue_date: issueDate,
      currency: PRICE_CURRENCY,
      invoices_count: usage.invoices,
      signatures_count: usage.signatures,
      credit_notes_count: usage.creditNotes,
      invoices_amount: fixed(figures.invoices.amount),
      signatures_amount: fixed(figures.signatures.amount),
      credit_notes_amount: fixed(figures.creditNotes.amount),
      gross_amount: fixed(figures.grossAmount),
      discount_rate: String(figures.tier?.rate ?? 0),
      discount_amount: fixed(figures.discountAmount),
      total_ht: fixed(figures.totalHt),
      vat_rate: figures.vatRate.toFixed(),
      total_vat: fixed(figures.totalVat),
      total_ttc: fixed(figures.totalTtc),
      debited_amount: fixed(usage.debited),
      vat_debited: fixed(vatDebited),
      prepaid_amount: fixed(prepaid),
      amount_due: fixed(figures.totalTtc.minus(prepaid)),
      seller,
      buyer: buyerParty(tenant),
      created_at: now,
    });
    return { outcome: 'issued' as const, billing_invoice: toBillingInvoiceView(row) };
  },
});
