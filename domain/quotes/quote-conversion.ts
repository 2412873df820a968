import type { InvoiceInput } from '../../schemas/invoices.js';
import { Decimal } from '../billing/index.js';
import { round2 } from '../documents/index.js';
import {
  type InvoiceKind,
  type InvoiceOwner,
  type InvoiceView,
  issueInvoice,
  type PreparedLine,
} from '../invoicing/index.js';
import { AppError } from '../shared/app-error.js';
import type { OperationContext } from '../shared/operation.js';
import { invoiceBodyOf, prepareQuote } from './quote-body.js';
import { recordQuoteChange } from './quote-changes.js';
import type { QuoteInvoiceRow, QuoteRow } from './quote-row.js';
import { type StoredQuote, updateQuote } from './quote-store.js';

/** One VAT rate of a quote (category, rate and exemption): what deposits are spread over. */
interface VatPart {
  key: string;
  line: PreparedLine;
  totalHt: Decimal;
  /** Already invoiced at this rate (deposits, and the balance once there is one). */
  invoicedHt: Decimal;
}

const keyOf = (l: PreparedLine) =>
  `${l.vatCategory}|${l.taxRate.toFixed(2)}|${l.exemptionReason ?? ''}|${l.exemptionCode ?? ''}`;

function vatPartsOf(quote: QuoteRow, invoices: readonly QuoteInvoiceRow[]): VatPart[] {
  const parts = new Map<string, VatPart>();
  for (const line of prepareQuote(quote.content).lines) {
    const key = keyOf(line);
    const part = parts.get(key) ?? { key, line, totalHt: new Decimal(0), invoicedHt: new Decimal(0) };
    part.totalHt = part.totalHt.plus(line.totalHt);
    parts.set(key, part);
  }
  for (const invoice of invoices) {
    for (const share of invoice.vat_split) {
      const part = parts.get(share.key);
      if (part) part.invoicedHt = part.invoicedHt.plus(share.total_ht);
    }
  }
  return [...parts.values()];
}

const remainingOf = (p: VatPart) => p.totalHt.minus(p.invoicedHt);

/** 409 unless the quote was accepted (or already partly converted) and has no balance invoice yet. */
function assertConvertible({ quote, invoices }: StoredQuote): void {
  if (quote.status !== 'accepted' && quote.status !== 'converted') {
    throw new AppError(
      'INVALID_STATE',
      `Quote ${quote.quote_number} is ${quote.status}: only an accepted quote is converted into invoices.`,
      { body: { status: quote.status } },
    );
  }
  const balance = invoices.find((i) => i.kind === 'balance');
  if (balance) {
    throw new AppError(
      'INVALID_STATE',
      `Quote ${quote.quote_number} already has its balance invoice: nothing is left to invoice.`,
      { body: { status: quote.status, balance_invoice_id: balance.invoice_id } },
    );
  }
}

/**
 * Spreads an amount excluding VAT over the VAT rates in proportion to what remains at each, to
 * the cent, the last rate taking the rounding: no rate is ever invoiced beyond its total.
 */
function spread(parts: readonly VatPart[], amount: Decimal): { part: VatPart; ht: Decimal }[] {
  const open = parts.filter((p) => remainingOf(p).greaterThan(0));
  const remaining = open.reduce((s, p) => s.plus(remainingOf(p)), new Decimal(0));
  let left = amount;
  return open
    .map((part, i) => {
      const ht = i === open.length - 1 ? left : round2(amount.times(remainingOf(part)).dividedBy(remaining));
      left = left.minus(ht);
      return { part, ht };
    })
    .filter((s) => s.ht.greaterThan(0));
}

const rateLabel = (l: PreparedLine) =>
  l.vatCategory === 'S' ? `TVA ${l.taxRate.toFixed(2)} %` : `TVA ${l.vatCategory}`;

/** The invoice line of one share: one unit at the share's amount, at its rate. */
function lineOf(description: string, share: { part: VatPart; ht: Decimal }, several: boolean) {
  const l = share.part.line;
  return {
    description: several ? `${description} (${rateLabel(l)})` : description,
    quantity: 1,
    unit_price: Number(share.ht.toFixed(2)),
    tax_rate: Number(l.taxRate.toFixed(2)),
    vat_category: l.vatCategory,
    ...(l.exemptionReason && !l.exemptionCode ? { vat_exemption_reason: l.exemptionReason } : {}),
  };
}

async function issue(
  ctx: OperationContext,
  stored: StoredQuote,
  kind: 'deposit' | 'balance',
  shares: { part: VatPart; ht: Decimal }[],
  description: string,
  dueDate: string | undefined,
  invoiceKind: InvoiceKind,
): Promise<{ invoice: InvoiceView; quote: StoredQuote }> {
  const { quote } = stored;
  const now = ctx.clock.now();
  const today = now.toISOString().slice(0, 10);
  if (dueDate !== undefined && dueDate < today) {
    throw AppError.validation({ due_date: ['must be on or after the invoice date (today)'] });
  }
  const several = shares.length > 1;
  const body: InvoiceInput = {
    ...invoiceBodyOf(quote.content),
    issue_date: today,
    ...(dueDate ? { due_date: dueDate } : {}),
    lines: shares.map((s) => lineOf(description, s, several)),
    metadata: { quote_id: quote.id, quote_number: quote.quote_number, quote_conversion: kind },
  };
  const owner: InvoiceOwner = {
    tenantId: quote.tenant_id,
    environment: quote.environment,
    subTenantId: quote.sub_tenant_id,
  };
  const invoice = await issueInvoice(ctx, owner, body, invoiceKind);
  const [row] = await ctx
    .tx('quote_invoices')
    .insert({
      tenant_id: quote.tenant_id,
      quote_id: quote.id,
      invoice_id: invoice.id,
      kind,
      total_ht: new Decimal(invoice.total_ht).toFixed(2),
      total_ttc: new Decimal(invoice.total_ttc).toFixed(2),
      vat_split: JSON.stringify(shares.map((s) => ({ key: s.part.key, total_ht: s.ht.toFixed(2) }))),
      created_at: now,
    })
    .returning<QuoteInvoiceRow[]>('*');
  const updated =
    quote.status === 'converted'
      ? await updateQuote(ctx.tx, quote.id, {}, now)
      : await updateQuote(ctx.tx, quote.id, { status: 'converted', converted_at: now }, now);
  await recordQuoteChange(ctx, updated, 'converted', {
    kind,
    invoice_id: invoice.id,
    invoice_number: invoice.invoice_number,
    invoice_total_ht: invoice.total_ht,
    invoice_total_ttc: invoice.total_ttc,
  });
  return { invoice, quote: { quote: updated, invoices: [...stored.invoices, row] } };
}

/**
 * A deposit invoice (type 386) for `percent` of the quote's total or an `amount` excluding VAT,
 * spread over the quote's VAT rates; never beyond what remains to invoice (422).
 */
export async function convertToDeposit(
  ctx: OperationContext,
  stored: StoredQuote,
  input: { percent?: number; amount?: number; label?: string; due_date?: string },
) {
  if ((input.percent === undefined) === (input.amount === undefined)) {
    const message = 'give either percent or amount (excluding VAT), not both';
    throw AppError.validation({ [input.percent === undefined ? 'percent' : 'amount']: [message] }, message);
  }
  assertConvertible(stored);
  const { quote, invoices } = stored;
  const total = new Decimal(quote.total_ht);
  const field = input.percent !== undefined ? 'percent' : 'amount';
  const given = new Decimal(String(input.percent ?? input.amount));
  if (given.decimalPlaces() > 2) throw AppError.validation({ [field]: ['must have at most 2 decimal places'] });
  const amount = input.percent !== undefined ? round2(total.times(given).dividedBy(100)) : given;
  const parts = vatPartsOf(quote, invoices);
  const remaining = parts.reduce((s, p) => s.plus(remainingOf(p)), new Decimal(0));
  if (!amount.greaterThan(0)) throw AppError.validation({ [field]: ['gives a deposit of 0.00'] });
  if (amount.greaterThan(remaining)) {
    throw AppError.validation({
      [field]: [
        `gives a deposit of ${amount.toFixed(2)} excluding VAT, more than the ${remaining.toFixed(2)} left to invoice on the quote (total ${total.toFixed(2)})`,
      ],
    });
  }
  const percentText = input.percent !== undefined ? ` de ${given.toFixed()} %` : '';
  const description = `${input.label ?? `Acompte${percentText}`} — devis ${quote.quote_number}`;
  return issue(ctx, stored, 'deposit', spread(parts, amount), description, input.due_date, {
    typeCode: '386',
    precedingInvoices: [],
  });
}

/**
 * The balance invoice (type 380): at each VAT rate, the quote's amount less the deposits, with the
 * deposit invoices as its preceding invoices (BG-3). Once only (409 after).
 */
export async function convertToBalance(
  ctx: OperationContext,
  stored: StoredQuote,
  input: { label?: string; due_date?: string },
  deposits: { id: string; number: string; issue_date: string }[],
) {
  assertConvertible(stored);
  const { quote, invoices } = stored;
  const shares = vatPartsOf(quote, invoices)
    .map((part) => ({ part, ht: remainingOf(part) }))
    .filter((s) => s.ht.greaterThan(0));
  if (shares.length === 0) {
    throw new AppError(
      'INVALID_STATE',
      `The deposits of quote ${quote.quote_number} cover its total: no balance is left.`,
    );
  }
  const deducted = deposits.length > 0 ? ` (acomptes ${deposits.map((d) => d.number).join(', ')} déduits)` : '';
  const description = `${input.label ?? 'Solde'} — devis ${quote.quote_number}${deducted}`;
  return issue(ctx, stored, 'balance', shares, description, input.due_date, {
    typeCode: '380',
    precedingInvoices: deposits,
  });
}
