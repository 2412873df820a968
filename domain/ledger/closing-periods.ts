/** Closing periods (DECISIONS.md "Fiscal ledger"): UTC days, calendar months and calendar years. */
export type ClosingType = 'daily' | 'monthly' | 'yearly';
export const CLOSING_TYPES: readonly ClosingType[] = ['daily', 'monthly', 'yearly'];

/** A period: its type and its first and last days (YYYY-MM-DD, inclusive). */
export interface Period {
  type: ClosingType;
  start: string;
  end: string;
}

const DAY_MS = 86_400_000;
const toDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const msOf = (day: string): number => Date.parse(`${day}T00:00:00.000Z`);

/** The UTC day of an instant. */
export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);
export const addDays = (day: string, n: number): string => toDay(msOf(day) + n * DAY_MS);

/** The period of a type that contains a day. */
export function periodContaining(type: ClosingType, day: string): Period {
  const [y, m] = day.split('-').map(Number);
  if (type === 'daily') return { type, start: day, end: day };
  if (type === 'monthly') {
    return { type, start: toDay(Date.UTC(y, m - 1, 1)), end: toDay(Date.UTC(y, m, 1) - DAY_MS) };
  }
  return { type, start: `${y}-01-01`, end: `${y}-12-31` };
}

export const nextPeriod = (p: Period): Period => periodContaining(p.type, addDays(p.end, 1));

/** The instant a period is over: 00:00 UTC the day after its last day. */
export const periodEndsAt = (p: Period): Date => new Date(msOf(p.end) + DAY_MS);

/** The last period of a type that is over by the end of `day` (the month before, unless `day` ends one). */
export function lastPeriodEndedBy(type: ClosingType, day: string): Period {
  const containing = periodContaining(type, day);
  return containing.end === day ? containing : periodContaining(type, addDays(containing.start, -1));
}
