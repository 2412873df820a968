import { availableParallelism } from 'node:os';
import { unanswered, type WorkerBudget, WorkerPool } from '../shared/worker-pool.js';
import { KYB_DOCUMENT_MAX_BYTES } from './kyb-document.js';

/**
 * An uploaded KYB document that says it is a PDF is read in a worker pool
 * (domain/shared/worker-pool.ts) running kyb-pdf-worker.ts, never on the event loop that serves
 * requests and never while a transaction is open: a byte limit, a heap and a wall-clock budget.
 */

/** What the worker answers: readable, or why not. */
export type KybPdfAnswer = { ok: true } | { ok: false; error: string };

/** `busy`: the file was not read (too many waiting), try again later; `unexpected`: a thread fault, to log. */
export type KybPdfOutcome = { ok: true } | { ok: false; error: string; busy?: boolean; unexpected?: string };

export const KYB_PDF_BUDGET: WorkerBudget = {
  threads: Math.max(1, Math.min(2, availableParallelism())),
  wallMs: 2000,
  heapMb: 256,
  // Waiting files hold at most 160 MB between them (sixteen of 10 MB, or many small ones).
  maxQueue: 256,
  maxQueueBytes: 16 * KYB_DOCUMENT_MAX_BYTES,
};

export class KybPdfPool {
  private readonly pool: WorkerPool<Uint8Array, KybPdfAnswer>;

  constructor(private readonly budget: WorkerBudget = KYB_PDF_BUDGET) {
    this.pool = new WorkerPool(new URL('./kyb-pdf-worker.js', import.meta.url), budget);
  }

  /** Whether the PDF can be read; never throws. */
  async check(pdf: Buffer): Promise<KybPdfOutcome> {
    if (pdf.length > KYB_DOCUMENT_MAX_BYTES) return { ok: false, error: 'it is larger than 10 MB' };
    const outcome = await this.pool.run(new Uint8Array(pdf), pdf.length);
    if (outcome.ok) return outcome.answer;
    return unanswered(outcome, this.budget, 'it', 'the PDF reader');
  }

  /** Stops every idle thread. */
  close(): Promise<void> {
    return this.pool.close();
  }
}

/** The process's pool, started on first use. */
let shared: KybPdfPool | null = null;
export const kybPdfPool = (): KybPdfPool => {
  shared ??= new KybPdfPool();
  return shared;
};
