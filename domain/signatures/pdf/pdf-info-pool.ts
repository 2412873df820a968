import { availableParallelism } from 'node:os';
import { SIGNATURE_DOCUMENT_MAX_BYTES } from '../../../schemas/signatures.js';
import { unanswered, type WorkerBudget, WorkerPool } from '../../shared/worker-pool.js';
import type { PdfInfo } from './read-pdf-info.js';

/**
 * A document sent for signature is read (readPdfInfo: its pages and their sizes) in a worker
 * pool (domain/shared/worker-pool.ts) running pdf-info-worker.ts, never on the event loop that
 * serves requests: an ordinary 20 MB PDF takes tens of milliseconds, one padded with hundreds of
 * thousands of objects seconds and hundreds of MB of heap. Each read has a byte limit, a heap and
 * a wall-clock budget.
 */

/** What the worker answers: the document's pages, or why it is not a readable PDF. */
export type PdfInfoAnswer = { ok: true; info: PdfInfo } | { ok: false; error: string };

/**
 * `error` completes "must be a readable PDF: …"; `busy`: the document was not read (too many
 * waiting), try again later; `unexpected`: a thread fault, to log.
 */
export type PdfInfoOutcome =
  | { ok: true; info: PdfInfo }
  | { ok: false; error: string; busy?: boolean; unexpected?: string };

export interface PdfInfoBudget extends WorkerBudget {
  /** Largest document accepted. */
  maxBytes: number;
}

export const PDF_INFO_BUDGET: PdfInfoBudget = {
  threads: Math.max(1, Math.min(2, availableParallelism())),
  // Far above an ordinary PDF's read (about 60 ms for 20 MB), below what a request may wait.
  wallMs: 2000,
  maxBytes: SIGNATURE_DOCUMENT_MAX_BYTES,
  heapMb: 512,
  // Waiting documents hold at most 320 MB between them (sixteen of 20 MB, or hundreds of small ones).
  maxQueue: 512,
  maxQueueBytes: 16 * SIGNATURE_DOCUMENT_MAX_BYTES,
};

export class PdfInfoPool {
  private readonly pool: WorkerPool<Uint8Array, PdfInfoAnswer>;

  constructor(private readonly budget: PdfInfoBudget = PDF_INFO_BUDGET) {
    this.pool = new WorkerPool(new URL('./pdf-info-worker.js', import.meta.url), budget);
  }

  /** The document's pages, or why it cannot be read; never throws. */
  async read(pdf: Buffer): Promise<PdfInfoOutcome> {
    if (pdf.length > this.budget.maxBytes)
      return { ok: false, error: `the PDF is larger than ${this.budget.maxBytes} bytes` };
    const outcome = await this.pool.run(new Uint8Array(pdf), pdf.length);
    if (outcome.ok) return outcome.answer;
    return unanswered(outcome, this.budget, 'the PDF', 'the PDF reader');
  }

  /** Stops every idle thread (busy ones stop when their document is done or over budget). */
  close(): Promise<void> {
    return this.pool.close();
  }
}

/** The process's pool, started on first use. */
let shared: PdfInfoPool | null = null;
export const pdfInfoPool = (): PdfInfoPool => {
  shared ??= new PdfInfoPool();
  return shared;
};
