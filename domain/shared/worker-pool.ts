import { Worker } from 'node:worker_threads';

/**
 * A pool of worker threads for work that must not run on the event loop serving requests:
 * parsing untrusted files above all. Each message goes to a thread with its own small heap
 * (`resourceLimits`) and a wall-clock budget; a thread over either is terminated and the task
 * fails, so an input crafted to loop, to be quadratic or to inflate into gigabytes costs at most
 * the budget, on a thread of its own. The caller gives the worker script (a module that answers
 * each message it receives with exactly one message) and maps failures to its own words.
 */

/**
 * What a worker script posts once, when its message listener is set up: a task's budget starts only
 * then, so a thread's start-up (spawning it, loading its modules: slow on a busy machine) is never
 * counted against the document it is given.
 */
export const WORKER_READY = 'worker-ready';

/** A thread that has not said it is ready within this long is counted as crashed. */
const STARTUP_MS = 30_000;

export interface WorkerBudget {
  /** Threads at most (each holds its own V8 heap while alive). */
  threads: number;
  /** Wall-clock time one task may take, from the moment a ready thread takes it. */
  wallMs: number;
  /** Old-generation heap of a thread, in MB: the task's memory ceiling. */
  heapMb: number;
  /** Tasks waiting for a thread at most; more are turned away (each waiting task holds its message). */
  maxQueue: number;
  /**
   * Bytes of the waiting messages at most (their sizes as `run` is told them): the memory bound
   * when messages range from kilobytes to megabytes, so many small ones may wait where few large
   * ones can. Unbounded (only `maxQueue` counts) when unset.
   */
  maxQueueBytes?: number;
}

/**
 * The worker's answer, or why there is none: `busy` (too many waiting, the task never ran),
 * `timeout` (over `wallMs`), `memory` (over `heapMb`), `crash` (the thread failed or exited;
 * `detail` says how, to log).
 */
export type WorkerOutcome<Answer> =
  | { ok: true; answer: Answer }
  | { ok: false; failure: 'busy' | 'timeout' | 'memory' | 'crash'; detail?: string };

/** A task that got no answer, in the words the pools give their callers (a 422's reason, or busy). */
export interface Unanswered {
  ok: false;
  error: string;
  /** Not read at all (too many waiting): try again later. */
  busy?: boolean;
  /** A thread fault, to log. */
  unexpected?: string;
}

/** Why a task got no answer: `subject` names the input ("the PDF"), `reader` the pool ("the PDF reader"). */
export function unanswered(
  outcome: { failure: 'busy' | 'timeout' | 'memory' | 'crash'; detail?: string },
  budget: WorkerBudget,
  subject: string,
  reader: string,
): Unanswered {
  switch (outcome.failure) {
    case 'busy':
      return { ok: false, busy: true, error: `${reader} is busy` };
    case 'timeout':
      return { ok: false, error: `${subject} takes longer than ${budget.wallMs} ms to read` };
    case 'memory':
      return { ok: false, error: `${subject} needs more than ${budget.heapMb} MB of memory to read` };
    default:
      return { ok: false, error: `${subject} cannot be read`, unexpected: outcome.detail ?? `${reader} failed` };
  }
}

/** How a thread's start-up ended. */
type StartOutcome = { ready: true } | { ready: false; failure: 'memory' | 'crash'; detail?: string };

interface Task<Message, Answer> {
  message: Message;
  bytes: number;
  resolve(outcome: WorkerOutcome<Answer>): void;
}

export class WorkerPool<Message, Answer> {
  private readonly idle: Worker[] = [];
  /** Resolves once a thread has posted WORKER_READY, or with why it never did (its start-up failed). */
  private readonly ready = new WeakMap<Worker, Promise<StartOutcome>>();
  private readonly queue: Task<Message, Answer>[] = [];
  private queuedBytes = 0;
  private threads = 0;

  /** `script`: the worker module's URL, e.g. `new URL('./parse-worker.js', import.meta.url)`. */
  constructor(
    private readonly script: URL,
    readonly budget: WorkerBudget,
  ) {}

  /** Runs one task on a thread; never throws. `bytes`: the message's size, for `maxQueueBytes`. */
  run(message: Message, bytes = 0): Promise<WorkerOutcome<Answer>> {
    const waits = this.idle.length === 0 && this.threads >= this.budget.threads;
    const full =
      this.queue.length >= this.budget.maxQueue ||
      (this.budget.maxQueueBytes !== undefined && this.queuedBytes + bytes > this.budget.maxQueueBytes);
    if (waits && full) return Promise.resolve({ ok: false, failure: 'busy' });
    return new Promise((resolve) => {
      this.queue.push({ message, bytes, resolve });
      this.queuedBytes += bytes;
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
      const task = this.queue.shift() as Task<Message, Answer>;
      this.queuedBytes -= task.bytes;
      this.start(worker, task);
    }
  }

  private spawn(): Worker {
    this.threads++;
    const worker = new Worker(this.script, {
      resourceLimits: {
        maxOldGenerationSizeMb: this.budget.heapMb,
        maxYoungGenerationSizeMb: 32,
        stackSizeMb: 4,
      },
      stdout: false,
      stderr: false,
    });
    this.ready.set(
      worker,
      new Promise<StartOutcome>((resolve) => {
        const settle = (outcome: StartOutcome) => {
          clearTimeout(timer);
          worker.off('message', onMessage);
          worker.off('error', onError);
          worker.off('exit', onExit);
          resolve(outcome);
        };
        const onMessage = (message: unknown) => {
          if (message === WORKER_READY) settle({ ready: true });
        };
        // Loading the worker's modules can already exceed a small heap: that is the memory budget too.
        const onError = (err: Error & { code?: string }) =>
          settle(
            err.code === 'ERR_WORKER_OUT_OF_MEMORY'
              ? { ready: false, failure: 'memory' }
              : { ready: false, failure: 'crash', detail: String(err.stack ?? err) },
          );
        const onExit = () => settle({ ready: false, failure: 'crash', detail: 'worker thread exited while starting' });
        const timer = setTimeout(
          () => settle({ ready: false, failure: 'crash', detail: 'worker thread did not start in time' }),
          STARTUP_MS,
        );
        worker.on('message', onMessage);
        worker.on('error', onError);
        worker.on('exit', onExit);
      }),
    );
    return worker;
  }

  private start(worker: Worker, task: Task<Message, Answer>): void {
    void (this.ready.get(worker) ?? Promise.resolve<StartOutcome>({ ready: true })).then((started) => {
      if (started.ready) {
        this.assign(worker, task);
        return;
      }
      this.threads--;
      void worker.terminate();
      const { ready: _, ...failure } = started;
      task.resolve({ ok: false, ...failure });
      this.dispatch();
    });
  }

  private assign(worker: Worker, task: Task<Message, Answer>): void {
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
    const onMessage = (answer: Answer | typeof WORKER_READY) => {
      if (answer !== WORKER_READY) finish({ ok: true, answer: answer as Answer }, true);
    };
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
