import type { CreateCreditNoteInput } from '../../schemas/credit-notes.js';
import { Decimal, toMoney } from '../billing/index.js';
import { round2, type VatCategory, vatGroups } from '../documents/index.js';
import type { PreparedLine } from '../invoicing/index.js';
import { AppError } from '../shared/app-error.js';
import type { CreditNoteType } from './credit-note-row.js';
import { type InvoiceBalance, type LineBalance, type RateBalance, rateKey } from './remaining-creditable.js';

/**
 * One credited item, checked and priced: a line like an invoice's, and the invoice line it credits,
 * or null for a free item (a discount, a goodwill gesture) credited at one of the invoice's rates.
 */
export interface PreparedCreditLine extends PreparedLine {
  invoiceLineNumber: number | null;
}

/** A credit note that passed every rule against its invoice's balance: what is stored. */
export interface PreparedCreditNote {
  reason: string;
  issueDate: string;
  type: CreditNoteType;
  lines: PreparedCreditLine[];
  totalHt: Decimal;
  totalTax: Decimal;
  totalTtc: Decimal;
  /** VAT per (category, rate), rounded once per rate (EN 16931 BT-117): the ledger's `vat_breakdown`. */
  vatBreakdown: { category: VatCategory; rate: Decimal; taxableAmount: Decimal; taxAmount: Decimal }[];
}

type Errors = Record<string, string[]>;
const add = (errors: Errors, path: string, message: string) => {
  errors[path] = [...(errors[path] ?? []), message];
};

function decimalOf(errors: Errors, path: string, value: number, places: number): Decimal | undefined {
  const d = toMoney(value);
  if (d.decimalPlaces() > places) {
    add(errors, path, `must have at most ${places} decimal places`);
    return undefined;
  }
  return d;
}

type Item = CreateCreditNoteInput['items'][number];

/**
 * The invoice line an item credits: by `line_number` when given, else by its exact description.
 * `null` when it names no line (no line_number, a description no line has): a free item.
 * `undefined` after an error.
 */
function matchLine(errors: Errors, at: string, item: Item, balance: InvoiceBalance): LineBalance | null | undefined {
  const lines = balance.lines;
  if (item.line_number !== undefined) {
    const found = lines.find((b) => b.line.line_number === item.line_number);
    if (!found)
      add(
        errors,
        `${at}.line_number`,
        `must be a line of invoice ${balance.invoice.invoice_number} (1 to ${lines.length})`,
      );
    return found;
  }
  const description = item.description.trim();
  const matches = lines.filter((b) => b.line.description === description);
  if (matches.length === 1) return matches[0];
  if (matches.length > 1) {
    add(errors, `${at}.line_number`, `is required: ${matches.length} lines of the invoice have this description`);
    return undefined;
  }
  return null;
}

const rateText = (r: RateBalance) => `${r.rate.toFixed()} %${r.category === 'S' ? '' : ` (${r.category})`}`;

/**
 * The invoice's rate a free item is credited at: the item's `tax_rate` (and `vat_category` when
 * given) must be one of the invoice's; a rate the invoice has under two categories (0 %: E and
 * AE, say) needs `vat_category`.
 */
function matchRate(errors: Errors, at: string, item: Item, rate: Decimal, balance: InvoiceBalance) {
  const atRate = balance.rates.filter((r) => r.rate.equals(rate));
  const candidates = item.vat_category ? atRate.filter((r) => r.category === item.vat_category) : atRate;
  if (candidates.length === 1) return candidates[0];
  if (candidates.length > 1) {
    add(
      errors,
      `${at}.vat_category`,
      `is required: invoice ${balance.invoice.invoice_number} has ${rate.toFixed()} % under categories ${candidates.map((r) => r.category).join(', ')}`,
    );
    return undefined;
  }
  add(
    errors,
    atRate.length ? `${at}.vat_category` : `${at}.tax_rate`,
    `must be one of the VAT rates of invoice ${balance.invoice.invoice_number}: ${balance.rates.map(rateText).join(', ')} (an item that names no invoice line, such as a discount, is credited at one of them)`,
  );
  return undefined;
}

interface Matched {
  item: Item;
  /** The invoice line credited, or null for a free item. */
  b: LineBalance | null;
  vat: { category: VatCategory; exemptionReason: string | null; exemptionCode: string | null; unitCode: string };
  quantity: Decimal;
  price: Decimal;
  rate: Decimal;
  at: string;
}

/**
 * Every rule of a credit note against its invoice, then the caps. An item credits one invoice line
 * (named by `line_number` or its exact description), at the line's VAT rate; an item that names no
 * line is a free one (a discount, a goodwill gesture: an "avoir commercial"), at one of the
 * invoice's rates. Caps: per line, the quantities credited (this note and the earlier ones) stay
 * within the quantity invoiced and the amounts within the line's `total_ht`; per rate, every item
 * at that rate, bound or free, within the invoice lines' amounts at it; in total, within the
 * invoice's `total_ht`. Format problems are 422 VALIDATION_ERROR; going past what remains is 422
 * CREDIT_EXCEEDS_REMAINING with the figures. `total` when the note credits everything that
 * remains, else `partial`.
 */
// No cap on the unit price itself: after a price reduction (quantity 1 at a part of the price),
// the rest of the line is still creditable at a higher unit price, within the line's amount.
export function prepareCreditNote(
  input: CreateCreditNoteInput,
  balance: InvoiceBalance,
  today: string,
): PreparedCreditNote {
  const errors: Errors = {};
  const invoice = balance.invoice;
  const issueDate = input.issue_date ?? (today < invoice.issue_date ? invoice.issue_date : today);
  if (issueDate < invoice.issue_date) {
    add(errors, 'issue_date', `must be on or after the invoice's issue date, ${invoice.issue_date}`);
  }
  const matched: Matched[] = [];
  input.items.forEach((item, index) => {
    const at = `items.${index}`;
    const quantity = decimalOf(errors, `${at}.quantity`, item.quantity, 4);
    const price = decimalOf(errors, `${at}.unit_price`, item.unit_price, 4);
    const rate = decimalOf(errors, `${at}.tax_rate`, item.tax_rate, 2);
    const b = matchLine(errors, at, item, balance);
    if (!quantity || !price || !rate || b === undefined) return;
    if (price.isZero()) add(errors, `${at}.unit_price`, 'must be above 0: a credit note credits an amount');
    if (b) {
      if (!rate.equals(b.line.tax_rate)) {
        add(errors, `${at}.tax_rate`, `must be the invoice line's VAT rate, ${new Decimal(b.line.tax_rate).toFixed()}`);
      }
      if (item.vat_category !== undefined && item.vat_category !== b.line.vat_category) {
        add(errors, `${at}.vat_category`, `must be the invoice line's VAT category, ${b.line.vat_category}`);
      }
      const vat = {
        category: b.line.vat_category,
        exemptionReason: b.line.vat_exemption_reason,
        exemptionCode: b.line.vat_exemption_reason_code,
        unitCode: b.line.unit_code,
      };
      matched.push({ item, b, vat, quantity, price, rate, at });
      return;
    }
    const r = matchRate(errors, at, item, rate, balance);
    if (!r) return;
    const vat = {
      category: r.category,
      exemptionReason: r.exemptionReason,
      exemptionCode: r.exemptionCode,
      unitCode: 'C62',
    };
    matched.push({ item, b: null, vat, quantity, price, rate, at });
  });
  if (Object.keys(errors).length) throw AppError.validation(errors);

  const lines = matched.map(({ item, b, vat, quantity, price, rate }, i): PreparedCreditLine => {
    const totalHt = round2(quantity.times(price));
    const totalTax = round2(totalHt.times(rate).dividedBy(100));
    return {
      lineNumber: i + 1,
      invoiceLineNumber: b ? b.line.line_number : null,
      description: item.description.trim(),
      quantity,
      unitPrice: price,
      taxRate: rate,
      vatCategory: vat.category,
      exemptionReason: vat.exemptionReason,
      exemptionCode: vat.exemptionCode,
      unitCode: vat.unitCode,
      totalHt,
      totalTax,
      totalTtc: totalHt.plus(totalTax),
    };
  });
  assertWithinRemaining(
    balance,
    lines,
    matched.map((m) => m.at),
  );

  const groups = vatGroups(lines);
  const totalHt = lines.reduce((s, l) => s.plus(l.totalHt), new Decimal(0));
  if (totalHt.isZero()) throw AppError.validation({ items: ['must credit an amount above 0.00'] });
  const totalTax = groups.reduce((s, g) => s.plus(g.groupTax), new Decimal(0));
  return {
    reason: input.reason.trim(),
    issueDate,
    type: totalHt.equals(balance.remainingHt) ? 'total' : 'partial',
    lines,
    totalHt,
    totalTax,
    totalTtc: totalHt.plus(totalTax),
    vatBreakdown: groups.map((g) => ({
      category: g.category,
      rate: g.rate,
      taxableAmount: g.taxableAmount,
      taxAmount: g.groupTax,
    })),
  };
}

/** The caps, per line, per rate and in total, against what remains now (the invoice row is locked). */
function assertWithinRemaining(balance: InvoiceBalance, lines: PreparedCreditLine[], paths: string[]): void {
  const errors: Errors = {};
  const byLine = new Map<number, { quantity: Decimal; ht: Decimal; at: string }>();
  const byRate = new Map<string, { ht: Decimal; at: string }>();
  lines.forEach((l, i) => {
    const key = rateKey(l.vatCategory, l.taxRate);
    const atRate = byRate.get(key) ?? { ht: new Decimal(0), at: paths[i] };
    byRate.set(key, { ...atRate, ht: atRate.ht.plus(l.totalHt) });
    if (l.invoiceLineNumber === null) return;
    const sum = byLine.get(l.invoiceLineNumber) ?? { quantity: new Decimal(0), ht: new Decimal(0), at: paths[i] };
    byLine.set(l.invoiceLineNumber, { ...sum, quantity: sum.quantity.plus(l.quantity), ht: sum.ht.plus(l.totalHt) });
  });
  for (const [lineNumber, sum] of byLine) {
    const b = balance.lines.find((x) => x.line.line_number === lineNumber)!;
    if (sum.quantity.greaterThan(b.remainingQuantity)) {
      add(
        errors,
        `${sum.at}.quantity`,
        `exceeds the remaining quantity of invoice line ${lineNumber}: ${b.remainingQuantity.toFixed()} of ${b.originalQuantity.toFixed()} left to credit`,
      );
    }
    if (sum.ht.greaterThan(b.remainingHt)) {
      add(
        errors,
        `${sum.at}.unit_price`,
        `credits ${sum.ht.toFixed(2)} excluding VAT on invoice line ${lineNumber}, which has ${b.remainingHt.toFixed(2)} left to credit`,
      );
    }
  }
  for (const [key, sum] of byRate) {
    const r = balance.rates.find((x) => rateKey(x.category, x.rate) === key)!;
    if (sum.ht.greaterThan(r.remainingHt)) {
      add(
        errors,
        `${sum.at}.unit_price`,
        `credits ${sum.ht.toFixed(2)} excluding VAT at ${rateText(r)}, where the invoice has ${r.remainingHt.toFixed(2)} left to credit`,
      );
    }
  }
  const total = lines.reduce((s, l) => s.plus(l.totalHt), new Decimal(0));
  if (total.greaterThan(balance.remainingHt)) {
    add(
      errors,
      'items',
      `credit ${total.toFixed(2)} excluding VAT; the invoice has ${balance.remainingHt.toFixed(2)} left to credit`,
    );
  }
  if (Object.keys(errors).length === 0) return;
  const first = Object.values(errors)[0][0];
  throw new AppError(
    'CREDIT_EXCEEDS_REMAINING',
    `The credit note goes beyond what remains creditable on invoice ${balance.invoice.invoice_number} (${balance.remainingHt.toFixed(2)} ${balance.invoice.currency} excluding VAT): ${first}. See GET /v1/invoices/${balance.invoice.id}/remaining-creditable.`,
    {
      retryable: false,
      body: {
        invoice_id: balance.invoice.id,
        remaining_creditable_ht: Number(balance.remainingHt.toFixed(2)),
        remaining_by_rate: balance.rates.map((r) => ({
          tax_rate: Number(r.rate),
          vat_category: r.category,
          remaining_ht: Number(r.remainingHt.toFixed(2)),
        })),
        details: errors,
      },
    },
  );
}
