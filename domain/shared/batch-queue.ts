export interface BatchLimits<T = unknown> {
  /** Batches running at once; more items wait and go together into the next one. */
  maxInFlight: number;
  /** Items in one batch at most; more wait for the next. */
  maxBatch: number;
  /**
   * Under load (the last batch carried several items and ended less than this long ago, or still
   * runs), a batch that would start with fewer than half as many waits up to this long for
   * company. An item that finds the queue quiet never waits.
   */
  lingerMs?: number;
  /**
   * Whose each item is (a tenant): a batch then takes the items of everyone waiting in turn, the
   * first item of each in the order they came, then the second, so that one owner's burst never
   * holds up another's few items. Without it, a batch takes the items in the order they came.
   */
  ownerOf?: (item: T) => string;
  /**
   * With `ownerOf`: batches in all, at most, when those beyond `maxInFlight` share no owner with the
   * batches holding a place, each of which holds one owner's items only. A lone owner's item then
   * runs at once beside another owner's burst, which goes on a batch at a time; batches of many
   * owners keep to `maxInFlight`, so that they stay large.
   */
  maxInFlightApart?: number;
}

/**
 * The queue behind group commit and batched lookups. An item runs at once while fewer than
 * `maxInFlight` batches are running; otherwise it waits, and when a batch ends, everything that
 * waited meanwhile starts as the next batch. Alone, an item is never delayed; under load, each
 * batch (one transaction, one statement) serves everyone who arrived while the previous ones ran.
 * `run` must settle every item of its batch itself and never reject. It may call `release` to
 * free its place before it ends (a transaction whose rows are written frees it while it commits,
 * so that the next batch writes during that commit).
 */
export class BatchQueue<T> {
  private readonly waiting: T[] = [];
  /** Batches holding a place (not released yet). */
  private running = 0;
  /** Batches not finished yet, released or not. */
  private unfinished = 0;
  private lastBatchSize = 0;
  private idleSince = 0;
  private lingering: NodeJS.Timeout | null = null;
  /** Owners (`ownerOf`) of the batches holding a place, and how many of those batches hold each. */
  private readonly holding = new Tally();
  /** Batches holding a place with the items of several owners. */
  private sharedHolding = 0;
  /** Owners (`ownerOf`) of the waiting items, and how many each. */
  private readonly waitingOwners = new Tally();

  constructor(
    private readonly limits: BatchLimits<T>,
    private readonly run: (batch: T[], release: () => void) => Promise<void>,
    /** Called when the queue is empty and nothing runs (a keyed queue may drop itself then). */
    private readonly onIdle?: () => void,
  ) {}

  /** Nothing waits and nothing runs. */
  get idle(): boolean {
    return this.unfinished === 0 && this.waiting.length === 0;
  }

  push(item: T): void {
    this.waiting.push(item);
    const { ownerOf } = this.limits;
    if (ownerOf) this.waitingOwners.add(ownerOf(item));
    this.pump();
  }

  private pump(): void {
    while (this.waiting.length > 0) {
      let batch: T[];
      if (this.running < this.limits.maxInFlight) {
        if (this.shouldLinger()) return;
        if (this.lingering) clearTimeout(this.lingering);
        this.lingering = null;
        batch = this.takeBatch(this.waiting);
        this.lastBatchSize = batch.length;
      } else if (this.running < (this.limits.maxInFlightApart ?? 0) && this.sharedHolding === 0) {
        batch = this.takeBatch(this.waitingApart());
        if (batch.length === 0) return;
      } else {
        return;
      }
      this.running++;
      this.unfinished++;
      const owners = this.hold(batch);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        this.running--;
        if (owners.length > 1) this.sharedHolding--;
        for (const owner of owners) this.holding.remove(owner);
        this.pump();
      };
      void this.run(batch, release).finally(() => {
        this.unfinished--;
        release();
        if (this.idle) {
          this.idleSince = Date.now();
          this.onIdle?.();
        }
      });
    }
  }

  /** The owners of a batch taking a place, counted until it releases it. */
  private hold(batch: T[]): string[] {
    const { ownerOf } = this.limits;
    if (!ownerOf) return [];
    const owners = [...new Set(batch.map(ownerOf))];
    if (owners.length > 1) this.sharedHolding++;
    for (const owner of owners) this.holding.add(owner);
    return owners;
  }

  /**
   * The waiting items whose owners have no batch holding a place; found without a look at the
   * items when every owner waiting has one (a lone owner's burst, item after item).
   */
  private waitingApart(): T[] {
    const { ownerOf } = this.limits;
    if (!ownerOf || this.waitingOwners.keys().every((owner) => this.holding.has(owner))) return [];
    return this.waiting.filter((item) => !this.holding.has(ownerOf(item)));
  }

  /**
   * The next batch out of `candidates` (waiting items): the first `maxBatch`, or each owner's in
   * turn (`ownerOf`). They leave the waiting list.
   */
  private takeBatch(candidates: readonly T[]): T[] {
    const { maxBatch, ownerOf } = this.limits;
    if (candidates === this.waiting && (!ownerOf || this.waiting.length <= maxBatch)) {
      return this.counted(this.waiting.splice(0, maxBatch));
    }
    if (!ownerOf || candidates.length <= maxBatch) return this.remove(candidates.slice(0, maxBatch));
    const byOwner = new Map<string, T[]>();
    for (const item of candidates) {
      const owner = ownerOf(item);
      const items = byOwner.get(owner);
      if (items) items.push(item);
      else byOwner.set(owner, [item]);
    }
    const taken = new Set<T>();
    for (let round = 0; taken.size < maxBatch; round++) {
      for (const items of byOwner.values()) {
        if (round < items.length) taken.add(items[round]);
        if (taken.size === maxBatch) break;
      }
    }
    return this.remove(candidates.filter((item) => taken.has(item)));
  }

  /** Takes `batch` (waiting items, in the order they came) out of the waiting list. */
  private remove(batch: T[]): T[] {
    const taken = new Set(batch);
    const left = this.waiting.filter((item) => !taken.has(item));
    this.waiting.length = 0;
    this.waiting.push(...left);
    return this.counted(batch);
  }

  /** `batch`, whose items have left the waiting list, no longer counted among their owners' waiting. */
  private counted(batch: T[]): T[] {
    const { ownerOf } = this.limits;
    if (!ownerOf) return batch;
    for (const item of batch) this.waitingOwners.remove(ownerOf(item));
    return batch;
  }

  /**
   * Under load: the last batch carried several items and is still running, or ended less than
   * `lingerMs` ago. Then a batch that would start with fewer than half as many items waits.
   */
  private shouldLinger(): boolean {
    const { lingerMs } = this.limits;
    if (!lingerMs || this.lastBatchSize <= 1 || this.waiting.length * 2 >= this.lastBatchSize) return false;
    if (this.unfinished === 0 && Date.now() - this.idleSince >= lingerMs) return false;
    if (this.lingering === null) {
      this.lingering = setTimeout(() => {
        this.lastBatchSize = 0;
        this.lingering = null;
        this.pump();
      }, lingerMs);
    }
    return true;
  }
}

/** How many of each key are counted; a key counted down to none is dropped. */
class Tally {
  private readonly counts = new Map<string, number>();

  add(key: string): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  remove(key: string): void {
    const left = (this.counts.get(key) ?? 1) - 1;
    if (left === 0) this.counts.delete(key);
    else this.counts.set(key, left);
  }

  has(key: string): boolean {
    return this.counts.has(key);
  }

  keys(): string[] {
    return [...this.counts.keys()];
  }
}

interface Pending<I, O> {
  input: I;
  resolve: (output: O) => void;
  reject: (err: unknown) => void;
}

/**
 * Batched reads and counter updates (the DataLoader pattern, without its caching): concurrent
 * `load` calls share one statement, `runMany(inputs)` answering each input in order. Every answer
 * comes from a statement that started after its call was made, so a batch never serves a state
 * older than the request (a key revoked before the request is seen revoked).
 */
export class MicroBatcher<I, O> {
  private readonly queue: BatchQueue<Pending<I, O>>;

  constructor(runMany: (inputs: I[]) => Promise<O[]>, limits: BatchLimits) {
    this.queue = new BatchQueue<Pending<I, O>>(limits, async (batch) => {
      try {
        const outputs = await runMany(batch.map((pending) => pending.input));
        for (const [i, pending] of batch.entries()) pending.resolve(outputs[i]);
      } catch (err) {
        for (const pending of batch) pending.reject(err);
      }
    });
  }

  load(input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => this.queue.push({ input, resolve, reject }));
  }
}
