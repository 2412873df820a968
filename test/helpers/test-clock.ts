import type { DependencyContainer } from 'tsyringe';
import { CLOCK } from '../../domain/container.js';
import type { Clock } from '../../domain/shared/clock.js';

/** A clock a test sets by hand: entries, closings and time-stamps then fall on the days it chooses. */
export class TestClock implements Clock {
  private current: Date;

  constructor(iso: string) {
    this.current = new Date(iso);
  }

  now(): Date {
    return new Date(this.current);
  }

  set(iso: string): void {
    this.current = new Date(iso);
  }
}

/** Container override that puts the test clock in place of the system clock. */
export const withClock = (clock: TestClock) => (container: DependencyContainer) =>
  container.register(CLOCK, { useValue: clock });
