import type { OperationContext } from '../shared/operation.js';
import { closePeriod } from './close-period.js';
import {
  type ClosingType,
  lastPeriodEndedBy,
  nextPeriod,
  type Period,
  periodContaining,
  utcDay,
} from './closing-periods.js';
import { type ClosingRow, chainStartedAt, lastClosing, lockChainClosings } from './closing-store.js';
import type { FiscalChain } from './fiscal-chain-summary.js';

/**
 * Closes every period of a type that is over by the end of `lastDay` and not closed yet, oldest
 * first, from the chain's first day (or the day after its last closing of that type): a missed
 * night is caught up, and the closings of a type never skip a period. Takes the chain's closing
 * lock first. Returns the closings made.
 */
export async function closeChainThrough(
  ctx: OperationContext,
  chain: FiscalChain,
  type: ClosingType,
  lastDay: string,
): Promise<ClosingRow[]> {
  await lockChainClosings(ctx.tx, chain);
  const target = lastPeriodEndedBy(type, lastDay);
  let previous = await lastClosing(ctx.tx, chain, type);
  if (previous && previous.period_start >= target.start) return [];
  let period: Period;
  if (previous) period = nextPeriod(periodContaining(type, previous.period_start));
  else {
    const startedAt = await chainStartedAt(ctx.tx, chain);
    if (!startedAt) return [];
    period = periodContaining(type, utcDay(startedAt));
  }
  const made: ClosingRow[] = [];
  for (; period.start <= target.start; period = nextPeriod(period)) {
    const closing = await closePeriod(ctx, chain, period, previous);
    if (!closing) continue;
    made.push(closing);
    previous = closing;
  }
  return made;
}
