/**
 * Billing months: calendar months in Europe/Paris, written `YYYY-MM`. A movement belongs to the
 * month of its time in Paris; the monthly run bills the month that ended last.
 */

export const MONTH_PATTERN = '^[0-9]{4}-(0[1-9]|1[0-2])$';

const PARIS_MONTH = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit' });
const PARIS_DAY = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Paris',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

const partsOf = (format: Intl.DateTimeFormat, instant: Date) =>
  Object.fromEntries(format.formatToParts(instant).map((p) => [p.type, p.value]));

/** The Paris month of an instant (`2026-11`). */
export function parisMonth(instant: Date): string {
  const parts = partsOf(PARIS_MONTH, instant);
  return `${parts.year}-${parts.month}`;
}

/** The Paris day of an instant (`2026-11-30`). */
export function parisDay(instant: Date): string {
  const parts = partsOf(PARIS_DAY, instant);
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** The month `offset` months after `month` (negative: before). */
export function addMonths(month: string, offset: number): string {
  const index = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1 + offset;
  return `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** The first day of a month, `YYYY-MM-01`: with `at time zone 'Europe/Paris'` in SQL, the month's first instant. */
export const firstDay = (month: string): string => `${month}-01`;

/** The last day of a month, `YYYY-MM-DD`. */
export function lastDay(month: string): string {
  const days = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).getUTCDate();
  return `${month}-${String(days).padStart(2, '0')}`;
}

/** French month name and year, for the invoice's lines (`octobre 2026`). */
export function frenchMonth(month: string): string {
  return new Intl.DateTimeFormat('fr-FR', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${month}-15T12:00:00Z`),
  );
}
