import test from 'ava';
import { RateCounters } from '../../domain/platform/rate-counters.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';

let env: TestDeps;
test.before(async () => {
  env = await createTestDeps();
});
test.after.always(() => env?.close());

const counters = () => new RateCounters(env.deps.counters, env.deps.log);
const stored = async (key: string) =>
  (await env.ownerDb('rate_limits').where({ key }).first<{ points: number } | undefined>())?.points;

test('150 concurrent hits on one key: each gets its own place, 1 to 150, and the table holds 150', async (t) => {
  const rate = counters();
  const states = await Promise.all(Array.from({ length: 150 }, () => rate.hit('test:per_minute:a', 60_000)));
  t.deepEqual(
    states.map((s) => s.consumed).sort((a, b) => a - b),
    Array.from({ length: 150 }, (_, i) => i + 1),
  );
  t.true(states.every((s) => s.msBeforeNext > 0 && s.msBeforeNext <= 60_000));
  t.is(await stored('test:per_minute:a'), 150);
});

test('hits on different keys in one batch are counted apart', async (t) => {
  const rate = counters();
  const keys = ['test:k:x', 'test:k:y', 'test:k:z'];
  const states = await Promise.all(Array.from({ length: 30 }, (_, i) => rate.hit(keys[i % 3], 60_000)));
  for (const [k, key] of keys.entries()) {
    const mine = states.filter((_, i) => i % 3 === k).map((s) => s.consumed);
    t.deepEqual(
      mine.sort((a, b) => a - b),
      Array.from({ length: 10 }, (_, i) => i + 1),
      key,
    );
    t.is(await stored(key), 10);
  }
});

test('two processes counting the same keys in opposite orders neither deadlock nor lose a hit', async (t) => {
  const a = counters();
  const b = counters();
  const keys = Array.from({ length: 8 }, (_, i) => `test:two:${i}`);
  await Promise.all(
    Array.from({ length: 200 }, (_, i) => {
      const order = i % 2 === 0 ? keys : [...keys].reverse();
      const counter = i % 2 === 0 ? a : b;
      return Promise.all(order.map((key) => counter.hit(key, 60_000)));
    }),
  );
  for (const key of keys) t.is(await stored(key), 200, key);
});

test('a window that ended starts again at 1; a refund takes one hit back', async (t) => {
  const rate = counters();
  await Promise.all([rate.hit('test:short', 150), rate.hit('test:short', 150)]);
  await new Promise((resolve) => setTimeout(resolve, 200));
  const fresh = await rate.hit('test:short', 150);
  t.is(fresh.consumed, 1, 'the two earlier hits belong to a window that ended');
  t.is(fresh.msBeforeNext, 150, 'a new window starts with this hit');

  await rate.hit('test:refund', 60_000);
  await rate.hit('test:refund', 60_000);
  await rate.refund('test:refund');
  t.is(await stored('test:refund'), 1);
  t.is((await rate.hit('test:refund', 60_000)).consumed, 2);
});
