import { AppError } from '../shared/app-error.js';
import type { Logger } from '../shared/logger.js';
import { type ParseOutcome, parserPool } from './parser-pool.js';

/**
 * Parses a file received from outside in the parser pool (off the event loop, outside any
 * transaction, under its time and memory budget). A parser fault is logged and reads as an
 * unreadable file: the caller refuses it or stores it with its error, never fails with a 500.
 * A pool too busy to take the file answers 503 (SERVICE_UNAVAILABLE), retryable.
 */
export async function readUntrustedFile(content: Buffer, log: Logger): Promise<ParseOutcome> {
  const outcome = await parserPool().parse(content);
  // Not the file's fault: a 503 for a caller, a retry for a job.
  if (!outcome.ok && outcome.busy) throw new AppError('SERVICE_UNAVAILABLE', 'The file parser is busy: retry shortly.');
  if (!outcome.ok && outcome.unexpected) log.warn({ fault: outcome.unexpected }, 'incoming file parser fault');
  return outcome;
}
