import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { INCOMING_FILE_MAX_BYTES } from './parse-incoming-file.js';
import type { ParsedInvoice } from './parsed-invoice.js';

/**
 * Untrusted files (supplier invoices: PDF, XML) are parsed here, never on the event loop that
 * serves requests or runs other jobs, and never while a database transaction is open. Each file
 * goes to a worker thread with its own small heap (`resourceLimits`) and a wall-clock budget; a
 * thread over either is terminated and the file refused, so a file crafted to loop, to be
 * quadratic or to inflate into gigabytes costs at most the budget, on a thread of its own.
 */

export type ParseOutcome =
  | { ok: true; parsed: ParsedInvoice }
  /**
   * `error` is for the caller (422) or `parse_error`; `unexpected` is a parser fault, to log;
   * `busy`: the file was not read at all (too many waiting), try again later.
   */
  | { ok: false; error: string; unexpected?: string; busy?: boolean };

export interface ParserBudget {
  /** Threads at most (each holds its own V8 heap while alive). */
  threads: number;
  /** Wall-clock time one file may take, from the moment a thread takes it. */
  wallMs: number;
  /** Largest file accepted. */
  maxBytes: number;
  /** Old-generation heap of a thread, in MB: the parse's memory ceiling. */
  heapMb: number;
  /** Files waiting for a thread at most; more are turned away (each waiting file holds its bytes). */
  maxQueue: number;
}

export const PARSER_BUDGET: ParserBudget = {
  threads: Math.max(1, Math.min(2, availableParallelism())),
  wallMs: 2000,
  maxBytes: INCOMING_FILE_MAX_BYTES,
  heapMb: 256,
  maxQueue: 32,
};

interface Task {
  bytes: Buffer;
  resolve(outcome: ParseOutcome): void;
}

export class ParserPool {
  private readonly idle: Worker[] = [];
  private readonly queue: Task[] = [];
  private threads = 0;

  constructor(private readonly budget: ParserBudget = PARSER_BUDGET) {}

  /** What the file says, or why it cannot be read; never throws. */
  parse(bytes: Buffer): Promise<ParseOutcome> {
    if (bytes.length === 0) return Promise.resolve({ ok: false, error: 'the file is empty' });
    if (bytes.length > this.budget.maxBytes)
      return Promise.resolve({ ok: false, error: `the file is larger than ${this.budget.maxBytes} bytes` });
    const waits = this.idle.length === 0 && this.threads >= this.budget.threads;
    if (waits && this.queue.length >= this.budget.maxQueue)
      return Promise.resolve({ ok: false, busy: true, error: 'the file parser is busy' });
    return new Promise((resolve) => {
      this.queue.push({ bytes, resolve });
      this.dispatch();
    });
  }

  /** Stops every idle thread (busy ones stop when their file is done or over budget). */
  async close(): Promise<void> {
    await Promise.all(this.idle.splice(0).map((worker) => worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let worker = this.idle.pop();
      if (!worker) {
        if (this.threads >= this.budget.threads) return;
        worker = this.spawn();
      }
      this.run(worker, this.queue.shift() as Task);
    }
  }

  private spawn(): Worker {
    this.threads++;
    return new Worker(new URL('./parse-worker.js', import.meta.url), {
      resourceLimits: {
        maxOldGenerationSizeMb: this.budget.heapMb,
        maxYoungGenerationSizeMb: 32,
        stackSizeMb: 4,
      },
      stdout: false,
      stderr: false,
    });
  }

  private run(worker: Worker, task: Task): void {
    let done = false;
    const finish = (outcome: ParseOutcome, healthy: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (healthy) {
        // An idle thread must not keep a command-line process or a test alive.
        worker.unref();
        this.idle.push(worker);
      } else {
        this.threads--;
        void worker.terminate();
      }
      task.resolve(outcome);
      this.dispatch();
    };
    const onMessage = (outcome: ParseOutcome) => finish(outcome, true);
    const onError = (err: Error & { code?: string }) =>
      finish(
        err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? { ok: false, error: `reading the file needs more than ${this.budget.heapMb} MB of memory` }
          : { ok: false, error: 'the file cannot be read', unexpected: String(err.stack ?? err) },
        false,
      );
    const onExit = () =>
      finish({ ok: false, error: 'the file cannot be read', unexpected: 'parser thread exited' }, false);
    const timer = setTimeout(
      () => finish({ ok: false, error: `reading the file takes longer than ${this.budget.wallMs} ms` }, false),
      this.budget.wallMs,
    );
    worker.ref();
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage(new Uint8Array(task.bytes));
  }
}

/** The process's pool, started on first use. */
let shared: ParserPool | null = null;
export const parserPool = (): ParserPool => {
  shared ??= new ParserPool();
  return shared;
};
