import type { Logger } from '../domain/shared/logger.js';

/**
 * Stops the process gracefully on SIGINT or SIGTERM: `stop` runs once (a second signal while it
 * runs is ignored instead of killing the process half-way), then the process exits.
 */
export function onShutdown(log: Logger, what: string, stop: () => Promise<void>): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, `${what} stopping`);
    stop().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err }, `${what} did not stop cleanly`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}

/** Runs a process entry point; a failure to start is printed and exits 1. */
export function runMain(what: string, main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    process.stderr.write(`${what} failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
}
