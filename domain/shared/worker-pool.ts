import { Worker } from 'node:worker_threads';

/**
 * A pool of worker threads for work that must not run on the event loop serving requests:
 * parsing untrusted files above all. Each message goes to a thread with its own small heap
 * (`resourceLimits`) and a wall-clock budget; a thread over either is terminated and the task
 * fails, so an input crafted to loop, to be quadratic or to inflate into gigabytes costs at most
 * the budget, on a thread of its own. The caller gives the worker script (a module that answers
 * each message it receives with exactly one message) and maps failures to its own words.
 */

export interface WorkerBudget {
  /** Threads at most (each holds its own V8 heap while alive). */
  threads: number;
  /** Wall-clock time one task may take, from the moment a thread takes it. */
  wallMs: number;
  /** Old-generation heap of a thread, in MB: the task's memory ceiling. */
  heapMb: number;
  /** Tasks waiting for a thread at most; more are turned away (each waiting task holds its message). */
  maxQueue: number;
}

/**
 * The worker's answer, or why there is none: `busy` (too many waiting, the task never ran),
 * `timeout` (over `wallMs`), `memory` (over `heapMb`), `crash` (the thread failed or exited;
 * `detail` says how, to log).
 */
export type WorkerOutcome<Answer> =
  | { ok: true; answer: Answer }
  | { ok: false; failure: 'busy' | 'timeout' | 'memory' | 'crash'; detail?: string };

interface Task<Message, Answer> {
  message: Message;
  resolve(outcome: WorkerOutcome<Answer>): void;
}

export class WorkerPool<Message, Answer> {
  private readonly idle: Worker[] = [];
  private readonly queue: Task<Message, Answer>[] = [];
  private threads = 0;

  /** `script`: the worker module's URL, e.g. `new URL('./parse-worker.js', import.meta.url)`. */
  constructor(
    private readonly script: URL,
    readonly budget: WorkerBudget,
  ) {}

  /** Runs one task on a thread; never throws. */
  run(message: Message): Promise<WorkerOutcome<Answer>> {
    const waits = this.idle.length === 0 && this.threads >= this.budget.threads;
    if (waits && this.queue.length >= this.budget.maxQueue) return Promise.resolve({ ok: false, failure: 'busy' });
    return new Promise((resolve) => {
      this.queue.push({ message, resolve });
      this.dispatch();
    });
  }

  /** Stops every idle thread (busy ones stop when their task is done or over budget). */
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
      this.start(worker, this.queue.shift() as Task<Message, Answer>);
    }
  }

  private spawn(): Worker {
    this.threads++;
    return new Worker(this.script, {
      resourceLimits: {
        maxOldGenerationSizeMb: this.budget.heapMb,
        maxYoungGenerationSizeMb: 32,
        stackSizeMb: 4,
      },
      stdout: false,
      stderr: false,
    });
  }

  private start(worker: Worker, task: Task<Message, Answer>): void {
    let done = false;
    const finish = (outcome: WorkerOutcome<Answer>, healthy: boolean) => {
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
    const onMessage = (answer: Answer) => finish({ ok: true, answer }, true);
    const onError = (err: Error & { code?: string }) =>
      finish(
        err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? { ok: false, failure: 'memory' }
          : { ok: false, failure: 'crash', detail: String(err.stack ?? err) },
        false,
      );
    const onExit = () => finish({ ok: false, failure: 'crash', detail: 'worker thread exited' }, false);
    const timer = setTimeout(() => finish({ ok: false, failure: 'timeout' }, false), this.budget.wallMs);
    worker.ref();
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage(task.message);
  }
}
