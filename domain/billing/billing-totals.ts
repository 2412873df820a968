import { Decimal } from './money.js';
import { type Chargeable, UNIT_PRICES } from './pricing.js';

/**
 * The figures of a month's billing invoice, from its counts (spec "What the service does", items 4
 * and 9; docs/decisions/0053): invoices × 0.04 + signatures × 1.20 + credit notes × 0.04, less the
 * volume discount, plus VAT at 20 %. Pure: the same counts always give the same figures, to the cent.
 */

/** Volume discount tiers, highest first: more than `above` invoices in the month gives `rate` % off. */
export const VOLUME_DISCOUNT_TIERS = [
  { above: 10000, rate: 30 },
  { above: 5000, rate: 20 },
  { above: 1000, rate: 10 },
] as const;

export type DiscountTier = (typeof VOLUME_DISCOUNT_TIERS)[number];

/** The VAT rate of the operator's invoices (standard French rate, category S). */
export const BILLING_VAT_RATE = 20;

export interface UsageCounts {
  invoices: number;
  signatures: number;
  creditNotes: number;
}

export interface KindFigures {
  count: number;
  unitPrice: Decimal;
  /** count × unit price, before any discount. */
  amount: Decimal;
}

export interface BillingFigures {
  invoices: KindFigures;
  signatures: KindFigures;
  creditNotes: KindFigures;
  /** Every kind at its unit price: what the month's debits took from the balance. */
  grossAmount: Decimal;
  /** The tier the month's invoice count reached, or null under 1,001 invoices. */
  tier: DiscountTier | null;
  /** The electronic invoices' unit price after the discount (0.04, 0.036, 0.032 or 0.028). */
  invoicesNetPrice: Decimal;
  /** The electronic invoices' line after the discount, rounded to the cent. */
  invoicesNetAmount: Decimal;
  /** What the discount takes off the invoices' line: `invoices.amount − invoicesNetAmount`. */
  discountAmount: Decimal;
  totalHt: Decimal;
  vatRate: Decimal;
  totalVat: Decimal;
  totalTtc: Decimal;
}

const round2 = (value: Decimal): Decimal => value.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);

/** The tier reached by a month's count of electronic invoices (the whole count: no bands). */
export function discountTierOf(invoices: number): DiscountTier | null {
  return VOLUME_DISCOUNT_TIERS.find((tier) => invoices > tier.above) ?? null;
}

const kind = (count: number, chargeable: Chargeable): KindFigures => {
  const unitPrice = new Decimal(UNIT_PRICES[chargeable]);
  return { count, unitPrice, amount: unitPrice.times(count) };
};

export function billingFigures(counts: UsageCounts): BillingFigures {
  const invoices = kind(counts.invoices, 'invoice');
  const signatures = kind(counts.signatures, 'signature');
  const creditNotes = kind(counts.creditNotes, 'credit_note');
  const grossAmount = invoices.amount.plus(signatures.amount).plus(creditNotes.amount);
  const tier = discountTierOf(counts.invoices);
  const keep = new Decimal(100 - (tier?.rate ?? 0)).dividedBy(100);
  const invoicesNetPrice = invoices.unitPrice.times(keep);
  const invoicesNetAmount = round2(invoicesNetPrice.times(counts.invoices));
  const discountAmount = invoices.amount.minus(invoicesNetAmount);
  const totalHt = grossAmount.minus(discountAmount);
  const vatRate = new Decimal(BILLING_VAT_RATE);
  const totalVat = round2(totalHt.times(vatRate).dividedBy(100));
  return {
    invoices,
    signatures,
    creditNotes,
    grossAmount,
    tier,
    invoicesNetPrice,
    invoicesNetAmount,
    discountAmount,
    totalHt,
    vatRate,
    totalVat,
    totalTtc: totalHt.plus(totalVat),
  };
}
