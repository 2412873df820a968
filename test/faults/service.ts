import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { WEB_MAIN, WORKER_MAIN } from '../helpers/processes.js';

/**
 * The Procfile's processes as built (`node dist/api/main.js`, `node dist/workers/main.js`), each of
 * which the suite may kill with SIGKILL and start again. The web process keeps its port across
 * restarts, so clients reconnect to the same address.
 */
export interface ServiceProcess {
  readonly name: string;
  pid(): number | undefined;
  start(): Promise<void>;
  /** SIGKILL: no graceful shutdown, no unfinished request answered, no job given back. */
  kill9(): Promise<void>;
  stop(): Promise<void>;
  /** The tail of its stderr (what a crash or a refused start said). */
  stderr(): string;
}

const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;
const STDERR_KEPT = 20_000;

export const newAppKey = (): string => `base64:${randomBytes(32).toString('base64')}`;

/** The environment of every process of one run: the same APP_KEY (workers open what the web sealed). */
export function serviceEnv(databaseUrl: string, appKey: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'development',
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_MAX: '10',
    HOST: '127.0.0.1',
    APP_KEY: appKey,
    LOG_LEVEL: 'error',
    ENABLE_SIMULATORS: 'true',
    // the webhook receiver and the fakes listen on loopback
    ALLOW_PRIVATE_URLS: 'true',
    // jobs of a killed worker come back within seconds, not a minute
    WORKER_SUPERVISE_SECONDS: '2',
    SIMULATOR_STEP_SECONDS: '1',
    WEBHOOK_RETRY_SCHEDULE: '1,1,2,2',
    // every request of the suite comes from one address
    RATE_LIMIT_SCALE: '1000',
    RATE_LIMITS: JSON.stringify({ anonymous: { per_minute: 1_000_000 } }),
    ...extra,
  };
}

function serviceProcess(name: string, script: string, readyType: string, env: () => NodeJS.ProcessEnv): ServiceProcess {
  let child: ChildProcess | undefined;
  let stderr = '';
  const exited = (c: ChildProcess) => c.exitCode !== null || c.signalCode !== null;
  const waitExit = (c: ChildProcess) =>
    exited(c) ? Promise.resolve() : new Promise<void>((resolve) => c.once('exit', () => resolve()));
  return {
    name,
    pid: () => child?.pid,
    stderr: () => stderr,
    async start() {
      if (child && !exited(child)) throw new Error(`${name} is already running`);
      const started = fork(script, [], { env: env(), stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
      child = started;
      started.stderr?.on('data', (chunk) => {
        stderr = (stderr + chunk).slice(-STDERR_KEPT);
      });
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${name} not ready in time: ${stderr}`)), START_TIMEOUT_MS);
        started.on('message', (message: { type?: string }) => {
          if (message?.type !== readyType) return;
          clearTimeout(timer);
          resolve();
        });
        started.once('exit', (code, signal) => {
          clearTimeout(timer);
          reject(new Error(`${name} exited before '${readyType}' (${code ?? signal}): ${stderr}`));
        });
      });
    },
    async kill9() {
      if (!child || exited(child)) return;
      const gone = waitExit(child);
      child.kill('SIGKILL');
      await gone;
    },
    async stop() {
      if (!child || exited(child)) return;
      const running = child;
      const gone = waitExit(running);
      running.kill('SIGTERM');
      const timer = setTimeout(() => running.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await gone;
      clearTimeout(timer);
    },
  };
}

export function webProcess(port: number, env: () => NodeJS.ProcessEnv): ServiceProcess {
  return serviceProcess('web', WEB_MAIN, 'listening', () => ({ ...env(), PORT: String(port) }));
}

export function workerProcess(env: () => NodeJS.ProcessEnv): ServiceProcess {
  return serviceProcess('worker', WORKER_MAIN, 'ready', env);
}
