import test from 'ava';
import { AppError } from '../../domain/shared/app-error.js';
import type { Caller } from '../../domain/shared/caller.js';
import { CallsNotWritable, GroupCommit, MAX_BATCH, MAX_IN_FLIGHT } from '../../domain/shared/group-commit.js';
import type { BatchCall } from '../../domain/shared/operation.js';

const caller: Caller = { kind: 'tenant', tenantId: 't', environment: 'sandbox', scopes: [] };
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

/** A fake store: batches and lone calls are recorded; a batch holding `fail` throws as a whole. */
function recorder() {
  const batches: number[][] = [];
  const alone: number[] = [];
  const runBatch = async (calls: readonly BatchCall<number>[]) => {
    await tick();
    if (calls.some((c) => c.input < 0)) throw new Error('the batch cannot be written');
    batches.push(calls.map((c) => c.input));
    return calls.map((c) => (c.input % 10 === 9 ? new AppError('VALIDATION_ERROR', `bad ${c.input}`) : c.input * 2));
  };
  const runAlone = (input: number) => async () => {
    await tick();
    alone.push(input);
    if (input < 0) throw new AppError('CONFLICT', `taken ${input}`);
    return input * 2;
  };
  return { batches, alone, runBatch, runAlone };
}

test('calls of one lane wait for the transactions in flight, then are written together', async (t) => {
  const commit = new GroupCommit();
  const r = recorder();
  const inputs = Array.from({ length: 30 }, (_, i) => i);
  const outcomes = await Promise.allSettled(
    inputs.map((input) => commit.submit('lane', { input, caller }, r.runBatch, r.runAlone(input))),
  );
  // the first MAX_IN_FLIGHT calls found the lane free and ran alone; the others shared transactions
  t.deepEqual(r.alone, inputs.slice(0, MAX_IN_FLIGHT));
  t.deepEqual(
    r.batches.flat().sort((a, b) => a - b),
    inputs.slice(MAX_IN_FLIGHT),
  );
  t.true(r.batches.length < 30 - MAX_IN_FLIGHT);
  outcomes.forEach((o, i) => {
    if (i % 10 === 9 && i >= MAX_IN_FLIGHT)
      t.is(o.status === 'rejected' && (o.reason as AppError).code, 'VALIDATION_ERROR');
    else t.deepEqual(o, { status: 'fulfilled', value: i * 2 });
  });
});

test('a batch that cannot be written is undone and each call runs alone for its own outcome', async (t) => {
  const commit = new GroupCommit();
  const r = recorder();
  const inputs = [1, 2, 3, 4, -5, 6, 7];
  const outcomes = await Promise.allSettled(
    inputs.map((input) => commit.submit('lane', { input, caller }, r.runBatch, r.runAlone(input))),
  );
  t.deepEqual(r.batches, [], 'the only batch held -5 and was refused whole');
  t.deepEqual(
    [...r.alone].sort((a, b) => a - b),
    [...inputs].sort((a, b) => a - b),
  );
  outcomes.forEach((o, i) => {
    if (inputs[i] < 0) t.is(o.status === 'rejected' && (o.reason as AppError).code, 'CONFLICT');
    else t.deepEqual(o, { status: 'fulfilled', value: inputs[i] * 2 });
  });
});

test('a batch that names the calls it cannot write runs those alone and writes the others together again', async (t) => {
  const commit = new GroupCommit();
  const batches: number[][] = [];
  const alone: number[] = [];
  // negative inputs cannot be written with the others, and the batch says which they are
  const runBatch = async (calls: readonly BatchCall<number>[]) => {
    await tick();
    const apart = calls.flatMap((c, i) => (c.input < 0 ? [i] : []));
    if (apart.length > 0) throw new CallsNotWritable(apart, new Error('taken'));
    batches.push(calls.map((c) => c.input));
    return calls.map((c) => c.input * 2);
  };
  const runAlone = (input: number) => async () => {
    await tick();
    alone.push(input);
    if (input < 0) throw new AppError('CONFLICT', `taken ${input}`);
    return input * 2;
  };
  const inputs = [0, 1, -2, 3, 4, -5, 6];
  const outcomes = await Promise.allSettled(
    inputs.map((input) => commit.submit('lane', { input, caller }, runBatch, runAlone(input))),
  );
  // 0 found the lane free; the batch of the six others was undone and written again without -2, -5
  t.deepEqual(batches, [[1, 3, 4, 6]]);
  t.deepEqual(
    [...alone].sort((a, b) => a - b),
    [-5, -2, 0],
  );
  outcomes.forEach((o, i) => {
    if (inputs[i] < 0) t.is(o.status === 'rejected' && (o.reason as AppError).code, 'CONFLICT');
    else t.deepEqual(o, { status: 'fulfilled', value: inputs[i] * 2 });
  });
});

test('a batch written again without the calls it named may name others, down to one call alone', async (t) => {
  const commit = new GroupCommit();
  const r = recorder();
  const attempts: number[][] = [];
  // each attempt blames its first call
  const runBatch = async (calls: readonly BatchCall<number>[]) => {
    attempts.push(calls.map((c) => c.input));
    throw new CallsNotWritable([0], new Error(`attempt ${attempts.length}`));
  };
  const inputs = [0, 1, 2, 3, 4];
  const outcomes = await Promise.allSettled(
    inputs.map((input) => commit.submit('lane', { input, caller }, runBatch, r.runAlone(input))),
  );
  // 0 found the lane free; then each attempt had one call fewer, and the last call ran alone
  t.deepEqual(attempts, [
    [1, 2, 3, 4],
    [2, 3, 4],
    [3, 4],
  ]);
  t.deepEqual(
    [...r.alone].sort((a, b) => a - b),
    inputs,
  );
  for (const [i, o] of outcomes.entries()) t.deepEqual(o, { status: 'fulfilled', value: inputs[i] * 2 });
});

test('lanes do not wait for each other, and a batch holds at most MAX_BATCH calls', async (t) => {
  const commit = new GroupCommit();
  const r = recorder();
  const many = Array.from({ length: MAX_BATCH * 2 + 10 }, (_, i) => i * 10 + 1);
  await Promise.all([
    ...many.map((input) => commit.submit('a', { input, caller }, r.runBatch, r.runAlone(input))),
    commit.submit('b', { input: 3, caller }, r.runBatch, r.runAlone(3)),
  ]);
  t.true(r.alone.includes(3), 'the other lane ran at once, alone');
  t.true(r.batches.every((b) => b.length <= MAX_BATCH));
  t.is(r.batches.flat().length + r.alone.length, many.length + 1);
});
