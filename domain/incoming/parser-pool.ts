import { availableParallelism } from 'node:os';
import { unanswered, type WorkerBudget, WorkerPool } from '../shared/worker-pool.js';
import { INCOMING_FILE_MAX_BYTES } from './parse-incoming-file.js';
import type { ParsedInvoice } from './parsed-invoice.js';

/**
 * Untrusted files (supplier invoices: PDF, XML) are parsed here, never on the event loop that
 * serves requests or runs other jobs, and never while a database transaction is open: each file
 * goes to a thread of a worker pool (domain/shared/worker-pool.ts) running parse-worker.ts, under
 * a byte limit, a heap and a wall-clock budget.
 */

export type ParseOutcome =
  | { ok: true; parsed: ParsedInvoice }
  /**
   * `error` is for the caller (422) or `parse_error`; `unexpected` is a parser fault, to log;
   * `busy`: the file was not read at all (too many waiting), try again later.
   */
  | { ok: false; error: string; unexpected?: string; busy?: boolean };

export interface ParserBudget extends WorkerBudget {
  /** Largest file accepted. */
  maxBytes: number;
}

export const PARSER_BUDGET: ParserBudget = {
  threads: Math.max(1, Math.min(2, availableParallelism())),
  wallMs: 2000,
  maxBytes: INCOMING_FILE_MAX_BYTES,
  heapMb: 256,
  maxQueue: 32,
};

export class ParserPool {
  private readonly pool: WorkerPool<Uint8Array, ParseOutcome>;

  constructor(private readonly budget: ParserBudget = PARSER_BUDGET) {
    this.pool = new WorkerPool(new URL('./parse-worker.js', import.meta.url), budget);
  }

  /** What the file says, or why it cannot be read; never throws. */
  async parse(bytes: Buffer): Promise<ParseOutcome> {
    if (bytes.length === 0) return { ok: false, error: 'the file is empty' };
    if (bytes.length > this.budget.maxBytes)
      return { ok: false, error: `the file is larger than ${this.budget.maxBytes} bytes` };
    const outcome = await this.pool.run(new Uint8Array(bytes));
    if (outcome.ok) return outcome.answer;
    return unanswered(outcome, this.budget, 'the file', 'the file parser');
  }

  /** Stops every idle thread (busy ones stop when their file is done or over budget). */
  close(): Promise<void> {
    return this.pool.close();
  }
}

/** The process's pool, started on first use. */
let shared: ParserPool | null = null;
export const parserPool = (): ParserPool => {
  shared ??= new ParserPool();
  return shared;
};
