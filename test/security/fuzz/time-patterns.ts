import { parentPort, workerData } from 'node:worker_threads';
import { hostileStrings } from './hostile-strings.js';

/**
 * Worker: times each pattern (compiled as ajv compiles them, with the `u` flag) against the hostile
 * strings and posts `{pattern, ms, input}` for its slowest. Run in a worker so that a catastrophic
 * pattern can be terminated instead of blocking the test.
 */
const { patterns, length } = workerData as { patterns: string[]; length: number };
const inputs = hostileStrings(length);
for (const pattern of patterns) {
  const regex = new RegExp(pattern, 'u');
  let worst = { ms: 0, input: '' };
  for (const input of inputs) {
    const started = performance.now();
    regex.test(input);
    const ms = performance.now() - started;
    if (ms > worst.ms)
      worst = {
        ms,
        input: `${JSON.stringify(input.slice(0, 3))}… ×${input.length} …${JSON.stringify(input.slice(-1))}`,
      };
  }
  parentPort!.postMessage({ pattern, ...worst });
}
