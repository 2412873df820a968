import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { exitOnConfigError, openEnvironment } from './environment.js';
import { migrateDatabase } from './migrate.js';

const WEB = fileURLToPath(new URL('../api/main.js', import.meta.url));
const WORKER = fileURLToPath(new URL('../workers/main.js', import.meta.url));

/**
 * `npm start`: one process tree. Starts the embedded PostgreSQL when DATABASE_URL is unset, migrates,
 * then runs the web front and the worker as child processes (the Procfile's `web` and `worker`)
 * against it. Ctrl-C stops the children gracefully, then the database.
 */
async function main(): Promise<void> {
  const runtime = await openEnvironment().catch(exitOnConfigError);
  const { config } = runtime;
  const say = (line: string) => process.stdout.write(`${line}\n`);
  say(runtime.embedded ? `database: embedded PostgreSQL (${config.dataDir}/pg)` : 'database: DATABASE_URL');
  const migrated = await migrateDatabase(config.databaseUrl!);
  say(`migrations: ${migrated.applied.length} applied`);
  say(
    config.enableSimulators
      ? 'simulators: on (Google sign-in, KYC, production e-invoicing without SUPERPDP_BASE_URL)'
      : 'simulators: off (ENABLE_SIMULATORS=true npm start for Google sign-in, KYC approval and production e-invoicing locally)',
  );

  const env = {
    ...process.env,
    DATABASE_URL: config.databaseUrl!,
    APP_KEY: `base64:${config.appKey!.toString('base64')}`,
  };
  const children = new Map<string, ChildProcess>();
  let stopping = false;

  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    say('stopping…');
    await Promise.all(
      [...children.values()].map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      ),
    );
    await runtime.stop();
    say('stopped');
    process.exit(code);
  };

  for (const [name, script] of [
    ['web', WEB],
    ['worker', WORKER],
  ] as const) {
    const child = fork(script, [], { env, stdio: 'inherit' });
    children.set(name, child);
    child.on('message', (message: { type?: string; port?: number }) => {
      if (message.type === 'listening') {
        const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
        say(
          `\nE-invoicing API ready at http://${host}:${message.port}/api  (health: /api/health, docs: /api/v1/openapi.json)\n`,
        );
      }
    });
    child.on('exit', (code, signal) => {
      if (!stopping) {
        process.stderr.write(`${name} process exited (${signal ?? code}); stopping the rest\n`);
        void stop(1);
      }
    });
  }
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
}

main().catch((err) => {
  process.stderr.write(`start failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
