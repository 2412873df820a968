import test from 'ava';
import type { Context } from 'koa';
import { InFlight } from '../../api/http/in-flight.js';

test('drained waits for running handlers, and gives up after its timeout', async (t) => {
  const inFlight = new InFlight();
  t.true(await inFlight.drained(10), 'nothing running: drained at once');
  let finish!: () => void;
  const running = inFlight.middleware()({} as Context, () => new Promise<void>((resolve) => (finish = resolve)));
  t.false(await inFlight.drained(20), 'a handler still runs');
  const drained = inFlight.drained(1000);
  finish();
  await running;
  t.true(await drained);
});
