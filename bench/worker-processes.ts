import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type ServiceOptions, serviceEnv, stopChild, waitForMessage } from './web-server.js';

const WORKER_ENTRY = fileURLToPath(new URL('../workers/main.js', import.meta.url));
const START_TIMEOUT_MS = 30_000;
/** Shorter than the worker's own 30 s grace: a phase that ran out of time should not wait for its backlog. */
const STOP_TIMEOUT_MS = 10_000;

export interface WorkerProcesses {
  pids: (number | undefined)[];
  stop(): Promise<void>;
}

/** `count` real worker processes (dist/workers/main.js, the Procfile's `worker`), each announcing `ready`. */
export async function startWorkerProcesses(
  count: number,
  databaseUrl: string,
  options: ServiceOptions,
): Promise<WorkerProcesses> {
  const children = Array.from({ length: count }, () =>
    fork(WORKER_ENTRY, [], {
      env: serviceEnv(databaseUrl, options),
      execArgv: process.env.BENCH_WORKER_EXEC_ARGV ? process.env.BENCH_WORKER_EXEC_ARGV.split(' ') : [],
      stdio: ['ignore', 2, 2, 'ipc'],
    }),
  );
  const stop = async () => {
    await Promise.all(children.map((child) => stopChild(child, STOP_TIMEOUT_MS)));
  };
  try {
    await Promise.all(children.map((child, i) => waitForMessage(child, 'ready', START_TIMEOUT_MS, `worker ${i + 1}`)));
  } catch (err) {
    await stop();
    throw err;
  }
  return { pids: children.map((child) => child.pid), stop };
}
