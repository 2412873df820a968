import { Decimal } from 'decimal.js';

export { Decimal };

/** Parses an API amount (JSON number or string) without passing through float arithmetic. */
export function toMoney(value: number | string): Decimal {
  // A number is read through its shortest string, as Decimal does itself for one that is not a
  // small integer (those it reads directly). -0 is read as "0", a positive zero.
  if (typeof value === 'number') return new Decimal(value === 0 ? 0 : value);
  return new Decimal(value);
}

/** Amounts carry at most 2 decimals (spec/DECISIONS.md, "Money and totals"). */
export const hasAtMostTwoDecimals = (amount: Decimal): boolean => amount.decimalPlaces() <= 2;

/** At most two decimals: rounding to two places changes nothing, so `Number` reads it as it is. */
const AT_MOST_TWO_PLACES = /^-?\d+(?:\.\d{1,2})?$/;

/**
 * A `numeric` column's string as a JSON number with 2 decimals' precision. A `numeric(18, 2)`
 * column's text already has two places: it skips the Decimal round trip (a view shows dozens).
 */
export const moneyToJson = (value: string | Decimal): number =>
  // `|| 0`: Decimal writes a negative zero as 0.00
  typeof value === 'string' && AT_MOST_TWO_PLACES.test(value)
    ? Number(value) || 0
    : Number(new Decimal(value).toFixed(2));
