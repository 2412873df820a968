import { Decimal } from 'decimal.js';

export { Decimal };

/** Parses an API amount (JSON number or string) without passing through float arithmetic. */
export function toMoney(value: number | string): Decimal {
  return new Decimal(typeof value === 'number' ? value.toString() : value);
}

/** Amounts carry at most 2 decimals (spec/DECISIONS.md, "Money and totals"). */
export const hasAtMostTwoDecimals = (amount: Decimal): boolean => amount.decimalPlaces() <= 2;

/** A `numeric` column's string as a JSON number with 2 decimals' precision. */
export const moneyToJson = (value: string | Decimal): number => Number(new Decimal(value).toFixed(2));
