import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';

const WEB_ENTRY = fileURLToPath(new URL('../api/main.js', import.meta.url));
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 15_000;

export interface WebServer {
  baseUrl: string;
  pid: number | undefined;
  stop(): Promise<void>;
}

export interface ServiceOptions {
  /** The same key for the web and worker processes of one run: the workers decrypt what the web stored. */
  appKey?: string;
  /** Variables over the bench's defaults (e.g. ALLOW_PRIVATE_URLS for a local webhook receiver). */
  env?: Record<string, string>;
}

/** A throwaway APP_KEY: production refuses to boot without a real one, development with this one keeps DATA_DIR untouched. */
export const newAppKey = (): string => `base64:${randomBytes(32).toString('base64')}`;

/** The environment of a forked service process (web or worker), as the bench runs them. */
export function serviceEnv(databaseUrl: string, options: ServiceOptions = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: databaseUrl,
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'development',
    APP_KEY: options.appKey ?? newAppKey(),
    // Limits stay on (their cost is part of every request) but a thousand times higher. Every
    // anonymous request of the bench comes from one address, which a real deployment never sees:
    // that one limit is raised further so that the public scenario measures its counting, not 429s.
    RATE_LIMIT_SCALE: process.env.BENCH_RATE_LIMIT_SCALE ?? '1000',
    RATE_LIMITS: process.env.RATE_LIMITS ?? JSON.stringify({ anonymous: { per_minute: 1_000_000 } }),
    ...options.env,
  };
}

/** The real web process, as deployed, so the numbers include its middleware and connection pool. */
export async function startWebServer(databaseUrl: string, options: ServiceOptions = {}): Promise<WebServer> {
  const child = fork(WEB_ENTRY, [], {
    execArgv: process.env.BENCH_WEB_EXEC_ARGV ? process.env.BENCH_WEB_EXEC_ARGV.split(' ') : [],
    env: serviceEnv(databaseUrl, options),
    // the child's stdout goes to our stderr so that stdout stays a single JSON document
    stdio: ['ignore', 2, 2, 'ipc'],
  });
  try {
    const message = await waitForMessage(child, 'listening', START_TIMEOUT_MS, 'web process');
    const port = message.port;
    if (typeof port !== 'number') throw new Error('web process announced no port');
    return { baseUrl: `http://127.0.0.1:${port}`, pid: child.pid, stop: () => stopChild(child) };
  } catch (err) {
    await stopChild(child);
    throw err;
  }
}

/** Resolves with the first IPC message of `type` the child sends (`listening`, `ready`). */
export function waitForMessage(
  child: ChildProcess,
  type: string,
  timeoutMs: number,
  what: string,
): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not send '${type}' in time`)), timeoutMs);
    child.on('message', (message: { type?: string }) => {
      if (message?.type !== type) return;
      clearTimeout(timer);
      resolve(message as Record<string, unknown>);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited before '${type}' (code ${code}, signal ${signal})`));
    });
  });
}

/** SIGTERM (the process's graceful shutdown), then SIGKILL after `timeoutMs`. */
export async function stopChild(child: ChildProcess, timeoutMs = STOP_TIMEOUT_MS): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  await exited;
  clearTimeout(timer);
}
