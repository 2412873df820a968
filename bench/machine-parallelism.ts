import { fork } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { workerJobRate } from './documents.js';

/**
 * `machine_parallelism`: Factur-X worker jobs per second rendered by one process alone, then by two
 * processes at once, nothing else running (no database, no server). Their ratio is what this
 * machine gives two processes that share nothing: the ceiling of two worker processes' speedup
 * before the service does anything. On a virtual machine whose cores are hyperthreads or are shared
 * with other guests it is below 2.
 */
export interface MachineParallelismReport {
  one_process_per_s: number;
  two_processes_per_s: number;
  speedup: number;
}

export async function measureMachineParallelism(seconds: number): Promise<MachineParallelismReport> {
  const one = await renderInProcesses(1, seconds);
  const two = await renderInProcesses(2, seconds);
  return {
    one_process_per_s: one,
    two_processes_per_s: two,
    speedup: one === 0 ? 0 : Number((two / one).toPrecision(3)),
  };
}

/** The summed rate of `count` child processes rendering over the same `seconds`. */
async function renderInProcesses(count: number, seconds: number): Promise<number> {
  const script = fileURLToPath(import.meta.url);
  const rates = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<number>((resolve, reject) => {
          const child = fork(script, ['--render', String(seconds)], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
          let rate: number | null = null;
          child.on('message', (message) => {
            rate = Number(message);
          });
          child.on('error', reject);
          child.on('exit', (code) =>
            rate === null ? reject(new Error(`the rendering process exited (${code}) without a rate`)) : resolve(rate),
          );
        }),
    ),
  );
  return rates.reduce((sum, rate) => sum + rate, 0);
}

// A child of `renderInProcesses`: renders for the given seconds and sends its rate to the parent.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href && process.argv[2] === '--render') {
  process.send?.(workerJobRate('facturx', Number(process.argv[3])));
  process.disconnect?.();
}
