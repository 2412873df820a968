import type { Server } from 'node:http';
import { buildContainer, resolveDeps, startDeps, stopDeps } from '../domain/container.js';
import { exitOnConfigError, openEnvironment } from '../runtime/environment.js';
import { onShutdown, runMain } from '../runtime/lifecycle.js';
import { createApp } from './app.js';
import { InFlight } from './http/in-flight.js';
import { keepConnectionsAlive } from './http/keep-alive.js';

/** The web process (Procfile `web`): the Koa front on PORT. */
runMain('web process', async () => {
  const runtime = await openEnvironment().catch(exitOnConfigError);
  const deps = resolveDeps(buildContainer(runtime.config, { role: 'web' }));
  await startDeps(deps);
  const inFlight = new InFlight();
  const server: Server = createApp(deps, { inFlight }).listen(runtime.config.port, runtime.config.host);
  keepConnectionsAlive(server);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));

  onShutdown(deps.log, 'web process', async () => {
    server.closeIdleConnections(); // requests in flight finish; idle keep-alive sockets close now
    await new Promise<void>((resolve) => server.close(() => resolve()));
    // Handlers of clients that hung up may still be running: let them finish before the pool closes.
    if (!(await inFlight.drained(10_000))) deps.log.warn('requests still running after 10 s; stopping anyway');
    await stopDeps(deps, { graceful: false, timeout: 5000 });
    await runtime.stop();
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : runtime.config.port;
  deps.log.info({ port }, 'web process listening');
  process.send?.({ type: 'listening', port });
});
