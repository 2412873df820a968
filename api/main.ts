import type { Server } from 'node:http';
import { buildContainer, resolveDeps, startDeps, stopDeps } from '../domain/container.js';
import { exitOnConfigError, openEnvironment } from '../runtime/environment.js';
import { createApp } from './app.js';

/** The web process (Procfile `web`): the Koa front on PORT. */
async function main(): Promise<void> {
  const runtime = await openEnvironment().catch(exitOnConfigError);
  const deps = resolveDeps(buildContainer(runtime.config, { role: 'web' }));
  await startDeps(deps);
  const app = createApp(deps);
  const server: Server = app.listen(runtime.config.port, runtime.config.host);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : runtime.config.port;
  deps.log.info({ port }, 'web process listening');
  process.send?.({ type: 'listening', port });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    deps.log.info({ signal }, 'web process stopping');
    server.closeIdleConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await stopDeps(deps, { graceful: false, timeout: 5000 });
    await runtime.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err) => {
  process.stderr.write(`web process failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
