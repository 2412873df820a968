import type { CreateCreditNoteInput } from '../../schemas/credit-notes.js';
import { Decimal, toMoney } from '../billing/money.js';
import type { VatCategory } from '../documents/invoice-document.js';
import type { PreparedLine } from '../invoicing/invoice.js';
import { round2, vatGroups } from '../invoicing/vat.js';
import { AppError } from '../shared/app-error.js';
import type { CreditNoteType } from './credit-note-row.js';
import type { InvoiceBalance, LineBalance } from './remaining-creditable.js';

/** One credited part of an invoice line, checked and priced: a line like an invoice's, and the line it credits. */
export interface PreparedCreditLine extends PreparedLine {
  invoiceLineNumber: number;
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

/** The invoice line an item credits: by `line_number` when given, else by its exact description. */
function matchLine(errors: Errors, at: string, item: CreateCreditNoteInput['items'][number], balance: InvoiceBalance) {
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
  } else {
    const names = lines.slice(0, 10).map((b) => `"${b.line.description.slice(0, 60)}"`);
    add(
      errors,
      `${at}.description`,
      `must be the description of a line of invoice ${balance.invoice.invoice_number} (${names.join(', ')}${lines.length > 10 ? ', …' : ''}), or give line_number`,
    );
  }
  return undefined;
}

/**
 * Every rule of a credit note against its invoice, then the caps: each item credits one invoice
 * line, at the line's VAT rate; per line, the quantities credited
 * (this note and the earlier ones) stay within the quantity invoiced and the amounts within the
 * line's `total_ht`; in total, within the invoice's `total_ht`. Format problems are 422
 * VALIDATION_ERROR; going past what remains is 422 CREDIT_EXCEEDS_REMAINING with the figures.
 * `total` when the note credits everything that remains, else `partial`.
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
  const matched: {
    item: CreateCreditNoteInput['items'][number];
    b: LineBalance;
    quantity: Decimal;
    price: Decimal;
    rate: Decimal;
    at: string;
  }[] = [];
  input.items.forEach((item, index) => {
    const at = `items.${index}`;
    const quantity = decimalOf(errors, `${at}.quantity`, item.quantity, 4);
    const price = decimalOf(errors, `${at}.unit_price`, item.unit_price, 4);
    const rate = decimalOf(errors, `${at}.tax_rate`, item.tax_rate, 2);
    const b = matchLine(errors, at, item, balance);
    if (!quantity || !price || !rate || !b) return;
    if (price.isZero()) add(errors, `${at}.unit_price`, 'must be above 0: a credit note credits an amount');
    if (!rate.equals(b.line.tax_rate)) {
      add(errors, `${at}.tax_rate`, `must be the invoice line's VAT rate, ${new Decimal(b.line.tax_rate).toFixed()}`);
    }
    matched.push({ item, b, quantity, price, rate, at });
  });
  if (Object.keys(errors).length) throw AppError.validation(errors);

  const lines = matched.map(({ item, b, quantity, price, rate }, i): PreparedCreditLine => {
    const totalHt = round2(quantity.times(price));
    const totalTax = round2(totalHt.times(rate).dividedBy(100));
    return {
      lineNumber: i + 1,
      invoiceLineNumber: b.line.line_number,
      description: item.description.trim(),
      quantity,
      unitPrice: price,
      taxRate: rate,
      vatCategory: b.line.vat_category,
      exemptionReason: b.line.vat_exemption_reason,
      exemptionCode: b.line.vat_exemption_reason_code,
      unitCode: b.line.unit_code,
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

/** The caps, per line and in total, against what remains now (the invoice row is locked). */
function assertWithinRemaining(balance: InvoiceBalance, lines: PreparedCreditLine[], paths: string[]): void {
  const errors: Errors = {};
  const byLine = new Map<number, { quantity: Decimal; ht: Decimal; at: string }>();
  lines.forEach((l, i) => {
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
        details: errors,
      },
    },
  );
}
