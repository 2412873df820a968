import type { Middleware } from 'koa';

/**
 * Requests whose handler is still running. A client that hangs up does not stop its handler, so
 * a graceful stop waits for these (not only for open connections) before closing the database.
 */
export class InFlight {
  private count = 0;
  private waiters: (() => void)[] = [];

  middleware(): Middleware {
    return async (_ctx, next) => {
      this.count++;
      try {
        await next();
      } finally {
        this.count--;
        if (this.count === 0) for (const wake of this.waiters.splice(0)) wake();
      }
    };
  }

  /** Resolves once no handler runs, or after `timeoutMs` (returns false then). */
  drained(timeoutMs: number): Promise<boolean> {
    if (this.count === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}
