import type { ClosingAmounts, ClosingTotals as ClosingTotalsSchema } from '../../schemas/fiscal-closings.js';

/** Counts and amounts (two decimals, as strings: money never passes through a float) of one currency. */
export type Amounts = ClosingAmounts;

/** Totals in euros, the fiscal currency; entries in another currency are totalled apart, never converted. */
export type ClosingTotals = ClosingTotalsSchema;
