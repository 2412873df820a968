import { buildContainer, resolveDeps, startDeps, stopDeps } from '../domain/container.js';
import { exitOnConfigError, openEnvironment } from '../runtime/environment.js';
import { startWorkers } from './worker.js';

/** The worker process (Procfile `worker`): every queue's handler and the cron schedules. */
async function main(): Promise<void> {
  const runtime = await openEnvironment().catch(exitOnConfigError);
  const deps = resolveDeps(buildContainer(runtime.config, { role: 'worker' }));
  await startDeps(deps);
  await startWorkers(deps);
  deps.log.info('worker process ready');
  process.send?.({ type: 'ready' });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    deps.log.info({ signal }, 'worker process stopping: finishing active jobs');
    await stopDeps(deps, { graceful: true, timeout: 30_000 });
    await runtime.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err) => {
  process.stderr.write(`worker process failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
