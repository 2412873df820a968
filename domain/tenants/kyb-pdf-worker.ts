import { parentPort } from 'node:worker_threads';
import { WORKER_READY } from '../shared/worker-pool.js';
import { pdfProblem } from './kyb-pdf-check.js';
import type { KybPdfAnswer } from './kyb-pdf-pool.js';

/**
 * A thread of kyb-pdf-pool.ts: checks one uploaded PDF per message. Anything the reader throws is
 * an answer (the file is refused), never a crash.
 */
parentPort?.on('message', (message: Uint8Array) => {
  const bytes = Buffer.from(message.buffer, message.byteOffset, message.byteLength);
  let answer: KybPdfAnswer;
  try {
    const problem = pdfProblem(bytes);
    answer = problem === null ? { ok: true } : { ok: false, error: problem };
  } catch {
    answer = { ok: false, error: 'it cannot be read' };
  }
  parentPort?.postMessage(answer);
});

// The listener is set: from now on a task's budget runs.
parentPort?.postMessage(WORKER_READY);
