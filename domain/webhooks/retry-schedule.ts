/**
 * Attempts of one delivery: the first at once, then one per entry of the schedule
 * (WEBHOOK_RETRY_SCHEDULE), capped by the endpoint's `retry_count`.
 */
export const maxAttemptsFor = (retryCount: number | null, schedule: readonly number[]): number =>
  1 + Math.min(retryCount ?? schedule.length, schedule.length);

/**
 * Milliseconds to wait after attempt `failed` (from 1) before the next one: the schedule's entry
 * with ±10 % jitter, so that the retries of many deliveries failing together spread out.
 */
export function retryDelayMs(schedule: readonly number[], failed: number, random: () => number = Math.random): number {
  const base = schedule[Math.min(failed, schedule.length) - 1] ?? 0;
  return Math.round(base * 1000 * (0.9 + 0.2 * random()));
}
