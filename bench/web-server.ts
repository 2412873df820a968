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

/** The real web process, as deployed, so the numbers include its middleware and connection pool. */
export async function startWebServer(databaseUrl: string): Promise<WebServer> {
  const child = fork(WEB_ENTRY, [], {
    execArgv: process.env.BENCH_WEB_EXEC_ARGV ? process.env.BENCH_WEB_EXEC_ARGV.split(' ') : [],
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      // production refuses to boot without a real key; development with a throwaway one keeps DATA_DIR untouched
      NODE_ENV: 'development',
      APP_KEY: `base64:${randomBytes(32).toString('base64')}`,
      // Limits stay on (their cost is part of every request) but a thousand times higher. Every
      // anonymous request of the bench comes from one address, which a real deployment never sees:
      // that one limit is raised further so that the public scenario measures its counting, not 429s.
      RATE_LIMIT_SCALE: process.env.BENCH_RATE_LIMIT_SCALE ?? '1000',
      RATE_LIMITS: process.env.RATE_LIMITS ?? JSON.stringify({ anonymous: { per_minute: 1_000_000 } }),
    },
    // the child's stdout goes to our stderr so that stdout stays a single JSON document
    stdio: ['ignore', 2, 2, 'ipc'],
  });
  try {
    const port = await waitForListening(child);
    return { baseUrl: `http://127.0.0.1:${port}`, pid: child.pid, stop: () => stopChild(child) };
  } catch (err) {
    await stopChild(child);
    throw err;
  }
}

function waitForListening(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('web process did not listen in time')), START_TIMEOUT_MS);
    child.on('message', (message: { type?: string; port?: number }) => {
      if (message?.type !== 'listening' || typeof message.port !== 'number') return;
      clearTimeout(timer);
      resolve(message.port);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`web process exited before listening (code ${code}, signal ${signal})`));
    });
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}
