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
  const queue = new BatchQueue<string>({ maxInFlight: 1, maxBatch: 10 }, async (batch, release) => {
    events.push(`write ${batch.join('+')}`);
    await tick();
    release();
    await tick();
    await tick();
    events.push(`commit ${batch.join('+')}`);
  });
  queue.push('a');
  queue.push('b');
  queue.push('c');
  await new Promise((resolve) => setTimeout(resolve, 60));
  // b+c started writing as soon as a had written, before a committed
  t.deepEqual(events, ['write a', 'write b+c', 'commit a', 'commit b+c']);
});

test('under load a small batch waits for company (at most lingerMs); an idle queue never waits', async (t) => {
  const started: { size: number; at: number }[] = [];
  const t0 = Date.now();
  const queue = new BatchQueue<number>({ maxInFlight: 1, maxBatch: 100, lingerMs: 40 }, async (batch) => {
    started.push({ size: batch.length, at: Date.now() - t0 });
    await tick();
  });
  queue.push(0);
  t.deepEqual(
    started.map((s) => s.size),
    [1],
    'alone on an idle queue: at once',
  );
  for (let i = 1; i <= 10; i++) queue.push(i);
  await new Promise((resolve) => setTimeout(resolve, 20));
  t.deepEqual(
    started.map((s) => s.size),
    [1, 10],
  );

  // the last batch carried 10: one newcomer waits for 4 more, and the fifth starts them at once
  for (let i = 0; i < 4; i++) queue.push(100 + i);
  await tick();
  t.is(started.length, 2, 'four are fewer than half of ten: they wait');
  queue.push(104);
  t.deepEqual(
    started.map((s) => s.size),
    [1, 10, 5],
  );

  // the last batch carried 5: two newcomers wait for a third, which never comes: lingerMs ends the wait
  await new Promise((resolve) => setTimeout(resolve, 20));
  const before = Date.now() - t0;
  queue.push(200);
  queue.push(201);
  await new Promise((resolve) => setTimeout(resolve, 10));
  t.is(started.length, 3);
  await new Promise((resolve) => setTimeout(resolve, 50));
  t.deepEqual(
    started.map((s) => s.size),
    [1, 10, 5, 2],
  );
  t.true(started[3].at - before >= 35, 'started when the linger ended');

  // quiet for longer than lingerMs: the first of a burst starts at once, the other five together
  await new Promise((resolve) => setTimeout(resolve, 60));
  for (let i = 0; i < 6; i++) queue.push(300 + i);
  await new Promise((resolve) => setTimeout(resolve, 60));
  t.deepEqual(
    started.slice(-2).map((s) => s.size),
    [1, 5],
  );
  queue.push(400);
  t.is(started.at(-1)?.size, 1, 'the load is over: no waiting');
});
