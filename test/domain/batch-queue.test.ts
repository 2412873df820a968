import test from 'ava';
import { BatchQueue, MicroBatcher } from '../../domain/shared/batch-queue.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

test('a lone load runs at once; loads made while batches run go together into the next one', async (t) => {
  const batches: number[][] = [];
  const batcher = new MicroBatcher<number, string>(
    async (inputs) => {
      batches.push(inputs);
      await tick();
      return inputs.map((n) => `#${n}`);
    },
    { maxInFlight: 1, maxBatch: 100 },
  );
  t.is(await batcher.load(0), '#0');
  t.deepEqual(batches, [[0]], 'alone, nothing waits for company');
  await tick();

  const outputs = await Promise.all(Array.from({ length: 20 }, (_, i) => batcher.load(i + 1)));
  t.deepEqual(
    outputs,
    Array.from({ length: 20 }, (_, i) => `#${i + 1}`),
    'each caller gets the answer to its own input',
  );
  // the first load started a statement; the 19 made while it ran shared the next one
  t.deepEqual(batches.slice(1), [[1], Array.from({ length: 19 }, (_, i) => i + 2)]);
});

test('a batch never holds more than maxBatch items, nor runs more than maxInFlight at once', async (t) => {
  let running = 0;
  let mostRunning = 0;
  const sizes: number[] = [];
  const batcher = new MicroBatcher<number, number>(
    async (inputs) => {
      running++;
      mostRunning = Math.max(mostRunning, running);
      sizes.push(inputs.length);
      await tick();
      running--;
      return inputs;
    },
    { maxInFlight: 2, maxBatch: 7 },
  );
  const outputs = await Promise.all(Array.from({ length: 40 }, (_, i) => batcher.load(i)));
  t.deepEqual(
    outputs,
    Array.from({ length: 40 }, (_, i) => i),
  );
  t.is(mostRunning, 2);
  t.true(sizes.every((size) => size <= 7));
  t.is(
    sizes.reduce((a, b) => a + b, 0),
    40,
  );
});

test('a failed statement rejects the callers of its batch only', async (t) => {
  const batcher = new MicroBatcher<number, number>(
    async (inputs) => {
      await tick();
      if (inputs.includes(13)) throw new Error('statement failed');
      return inputs;
    },
    { maxInFlight: 1, maxBatch: 2 },
  );
  const outcomes = await Promise.allSettled([batcher.load(1), batcher.load(12), batcher.load(13), batcher.load(14)]);
  t.deepEqual(
    outcomes.map((o) => o.status),
    ['fulfilled', 'rejected', 'rejected', 'fulfilled'],
    'batches were [1], [12, 13], [14]',
  );
});

test('the queue reports idle once nothing waits and nothing runs', async (t) => {
  let idle = 0;
  const queue = new BatchQueue<number>(
    { maxInFlight: 1, maxBatch: 10 },
    async () => {
      await tick();
    },
    () => idle++,
  );
  queue.push(1);
  queue.push(2);
  t.is(idle, 0);
  await tick();
  await tick();
  await tick();
  t.is(idle, 1);
});

test('a batch that releases its place lets the next one start while it finishes', async (t) => {
  const events: string[] = [];
  let idle!: () => void;
  const finished = new Promise<void>((resolve) => {
    idle = resolve;
  });
  const queue = new BatchQueue<string>(
    { maxInFlight: 1, maxBatch: 10 },
    async (batch, release) => {
      events.push(`write ${batch.join('+')}`);
      await tick();
      release();
      await tick();
      await tick();
      events.push(`commit ${batch.join('+')}`);
    },
    () => idle(),
  );
  queue.push('a');
  queue.push('b');
  queue.push('c');
  // Waits for the queue to be done rather than for a fixed time, which a loaded machine stretches.
  await finished;
  // b+c started writing as soon as a had written, before a committed
  t.deepEqual(events, ['write a', 'write b+c', 'commit a', 'commit b+c']);
});

/** A queue whose batches end (and release their place) only when the test says so. */
function heldQueue(lingerMs: number) {
  const batches: { size: number; release: () => void; finish: () => void }[] = [];
  const queue = new BatchQueue<number>(
    { maxInFlight: 1, maxBatch: 100, lingerMs },
    (batch, release) =>
      new Promise<void>((finish) => {
        batches.push({ size: batch.length, release, finish });
      }),
  );
  const sizes = () => batches.map((b) => b.size);
  return { queue, batches, sizes };
}

test('under load a small batch waits until half as many items as the last batch have come', async (t) => {
  const { queue, batches, sizes } = heldQueue(60_000);
  queue.push(0);
  t.deepEqual(sizes(), [1], 'alone on a quiet queue: at once');
  for (let i = 1; i <= 10; i++) queue.push(i);
  batches[0].finish();
  await tick();
  t.deepEqual(sizes(), [1, 10]);

  // the batch of ten has written (released its place) but not finished: the lane is under load
  batches[1].release();
  for (let i = 0; i < 4; i++) queue.push(100 + i);
  t.deepEqual(sizes(), [1, 10], 'four are fewer than half of ten: they wait');
  queue.push(104);
  t.deepEqual(sizes(), [1, 10, 5], 'the fifth starts them at once');
  batches[1].finish();
  batches[2].finish();
});

test('under load a small batch waits at most lingerMs; once the load is over nothing waits', async (t) => {
  const lingerMs = 40;
  const { queue, batches, sizes } = heldQueue(lingerMs);
  for (let i = 0; i < 6; i++) queue.push(i);
  batches[0].finish();
  await tick();
  t.deepEqual(sizes(), [1, 5]);
  batches[1].release();

  // two of five: they wait, and the linger's end starts them (a timer never fires early)
  const waitedFrom = Date.now();
  queue.push(10);
  queue.push(11);
  t.deepEqual(sizes(), [1, 5]);
  while (batches.length < 3) await tick();
  t.true(Date.now() - waitedFrom >= lingerMs - 1, 'started when the linger ended');
  t.deepEqual(sizes(), [1, 5, 2]);

  // everything finished, and quiet for longer than lingerMs: the next item starts at once
  batches[1].finish();
  batches[2].finish();
  await new Promise((resolve) => setTimeout(resolve, lingerMs * 2));
  queue.push(20);
  t.deepEqual(sizes(), [1, 5, 2, 1]);
  batches[3].finish();
});

test("with owners, a batch takes each owner's items in turn: a burst never holds up another's few", async (t) => {
  const batches: string[][] = [];
  let finish: () => void = () => {};
  const queue = new BatchQueue<string>(
    { maxInFlight: 1, maxBatch: 4, ownerOf: (item) => item.slice(0, 1) },
    async (batch) => {
      batches.push(batch);
      await new Promise<void>((resolve) => {
        finish = resolve;
      });
    },
  );
  queue.push('a0');
  // while a0 runs: a burst of a, then b's and c's few
  for (let i = 1; i <= 9; i++) queue.push(`a${i}`);
  queue.push('b1');
  queue.push('a10');
  queue.push('c1');
  queue.push('b2');
  const drain = async () => {
    while (!queue.idle) {
      finish();
      await tick();
    }
  };
  await drain();
  t.deepEqual(batches[0], ['a0']);
  // the first item of each owner, then the second, kept in the order they came
  t.deepEqual(batches[1], ['a1', 'a2', 'b1', 'c1']);
  t.deepEqual(batches[2], ['a3', 'a4', 'a5', 'b2']);
  t.deepEqual(batches.slice(3), [['a6', 'a7', 'a8', 'a9'], ['a10']]);
});

test('without owners, a batch takes the items in the order they came', async (t) => {
  const batches: string[][] = [];
  let finish: () => void = () => {};
  const queue = new BatchQueue<string>({ maxInFlight: 1, maxBatch: 4 }, async (batch) => {
    batches.push(batch);
    await new Promise<void>((resolve) => {
      finish = resolve;
    });
  });
  for (const item of ['a0', 'a1', 'a2', 'a3', 'a4', 'b1', 'c1']) queue.push(item);
  while (!queue.idle) {
    finish();
    await tick();
  }
  t.deepEqual(batches, [['a0'], ['a1', 'a2', 'a3', 'a4'], ['b1', 'c1']]);
});

test('a batch sharing no owner with one-owner batches running may run beside them, up to maxInFlightApart', async (t) => {
  const batches: string[][] = [];
  const finishers = new Map<string, () => void>();
  const queue = new BatchQueue<string>(
    { maxInFlight: 1, maxInFlightApart: 2, maxBatch: 10, ownerOf: (item) => item.slice(0, 1) },
    async (batch) => {
      batches.push(batch);
      await new Promise<void>((resolve) => finishers.set(batch[0], resolve));
    },
  );
  queue.push('a0');
  queue.push('a1');
  queue.push('a2');
  queue.push('b1');
  queue.push('b2');
  queue.push('c1');
  // a0 took the place; b1 runs beside it (no owner in common); a1, a2, b2 and c1 wait: two run at most
  t.deepEqual(batches, [['a0'], ['b1']]);
  finishers.get('a0')?.();
  await tick();
  // a place is free: the waiting items of owners with nothing running, a's and c's, not b's
  t.deepEqual(batches[2], ['a1', 'a2', 'c1']);
  finishers.get('b1')?.();
  await tick();
  // b has nothing running, but the batch running holds two owners: nothing runs beside it
  t.is(batches.length, 3);
  finishers.get('a1')?.();
  await tick();
  t.deepEqual(batches[3], ['b2']);
  finishers.get('b2')?.();
  await tick();
  t.true(queue.idle);
});
