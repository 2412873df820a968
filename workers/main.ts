import { buildContainer, resolveDeps, startDeps, stopDeps } from '../domain/container.js';
import { exitOnConfigError, openEnvironment } from '../runtime/environment.js';
import { onShutdown, runMain } from '../runtime/lifecycle.js';
import { startWorkers } from './worker.js';

/** The worker process (Procfile `worker`): every queue's handler and the cron schedules. */
runMain('worker process', async () => {
  const runtime = await openEnvironment().catch(exitOnConfigError);
  const deps = resolveDeps(buildContainer(runtime.config, { role: 'worker' }));
  await startDeps(deps);
  await startWorkers(deps);

  onShutdown(deps.log, 'worker process', async () => {
    await stopDeps(deps, { graceful: true, timeout: 30_000 }); // active jobs finish, up to 30 s
    await runtime.stop();
  });
  deps.log.info('worker process ready');
  process.send?.({ type: 'ready' });
});
