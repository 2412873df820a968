import { parentPort } from 'node:worker_threads';
import { WORKER_READY } from '../shared/worker-pool.js';
import { parseIncomingFile } from './parse-incoming-file.js';
import { IncomingParseError } from './parsed-invoice.js';
import type { ParseOutcome } from './parser-pool.js';
import { cleanText, sanitizeParsed } from './sanitize-parsed.js';

/**
 * A parser thread of parser-pool.ts: reads one file per message and answers with what it says,
 * sanitised for the database, or why it cannot be read. Anything the parser throws is an answer,
 * never a crash: a file that trips a parser bug is refused like any unreadable file.
 */
parentPort?.on('message', (message: Uint8Array) => {
  const bytes = Buffer.from(message.buffer, message.byteOffset, message.byteLength);
  let outcome: ParseOutcome;
  try {
    outcome = { ok: true, parsed: sanitizeParsed(parseIncomingFile(bytes)) };
  } catch (err) {
    outcome =
      err instanceof IncomingParseError
        ? { ok: false, error: cleanText(err.message, 500) ?? 'the file cannot be read' }
        : { ok: false, error: 'the file cannot be read', unexpected: String((err as Error)?.stack ?? err) };
  }
  parentPort?.postMessage(outcome);
});

// The listener is set: from now on a task's budget runs.
parentPort?.postMessage(WORKER_READY);
