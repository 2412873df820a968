import { parentPort } from 'node:worker_threads';
import { WORKER_READY } from '../../shared/worker-pool.js';
import type { PdfInfoAnswer } from './pdf-info-pool.js';
import { readPdfInfo } from './read-pdf-info.js';

/**
 * A thread of pdf-info-pool.ts: reads one uploaded PDF per message and answers with its page
 * sizes, or why it cannot be read. Anything the reader throws is an answer, never a crash.
 */
parentPort?.on('message', (message: Uint8Array) => {
  const bytes = Buffer.from(message.buffer, message.byteOffset, message.byteLength);
  let answer: PdfInfoAnswer;
  try {
    answer = { ok: true, info: readPdfInfo(bytes) };
  } catch (err) {
    const text = err instanceof Error ? err.message : '';
    answer = { ok: false, error: text.slice(0, 500) || 'the PDF cannot be read' };
  }
  parentPort?.postMessage(answer);
});

// The listener is set: from now on a task's budget runs.
parentPort?.postMessage(WORKER_READY);
