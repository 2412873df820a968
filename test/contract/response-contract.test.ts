import test from 'ava';
import type { RouteSpec } from '../../api/http/route-spec.js';
import { SCHEMAS } from '../../domain/container.js';
import { AppError } from '../../domain/shared/app-error.js';
import { ANY_CALLER } from '../../domain/shared/caller.js';
import { defineQuery } from '../../domain/shared/operation.js';
import { testSchemaRegistry } from '../fixtures/test-routes.js';
import { readJson } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/** The body the next call answers. */
const answers: { next: unknown } = { next: null };

/** A query that answers whatever the test put in `answers`, to drive the check with good and bad bodies. */
const echo = defineQuery<Record<string, never>, unknown>({
  name: 'echo_test_order',
  summary: 'Test query: answers a RecordedOrder, or not.',
  input: 'EmptyInput',
  output: 'RecordedOrder',
  callers: ANY_CALLER,
  transactional: false,
  async run() {
    return answers.next;
  },
});
/** A query that refuses with 402, as a paid operation does when the balance is short. */
const refuse = defineQuery<Record<string, never>, unknown>({
  name: 'refuse_test_order',
  summary: 'Test query: 402.',
  input: 'EmptyInput',
  output: 'RecordedOrder',
  callers: ANY_CALLER,
  transactional: false,
  async run() {
    throw new AppError('INSUFFICIENT_BALANCE', 'Top up.');
  },
});

const routes: RouteSpec[] = [
  { method: 'get', path: '/api/test/refuse', operation: refuse, tag: 'Test', auth: ['none'] },
  { method: 'get', path: '/api/test/refuse-documented', operation: refuse, tag: 'Test', auth: ['none'], errors: [402] },
  { method: 'get', path: '/api/test/echo', operation: echo, tag: 'Test', auth: ['none'] },
  { method: 'get', path: '/api/test/echo-raw', operation: echo, tag: 'Test', auth: ['none'], envelope: 'raw' },
];

let app: TestApp;
test.before(async () => {
  app = await startTestApp({
    override: (c) => c.register(SCHEMAS, { useValue: testSchemaRegistry() }),
    routes: () => routes,
  });
});
test.after.always(() => app?.close());

test.serial('a body that matches its documented schema goes out unchanged', async (t) => {
  const id = '6f1d3c5e-0000-4000-8000-000000000001';
  answers.next = { event_id: id };
  const res = await app.request('/api/test/echo');
  t.is(res.status, 200);
  t.deepEqual(await readJson(res), { data: { event_id: id } });
  const raw = await app.request('/api/test/echo-raw');
  t.is(raw.status, 200);
  t.deepEqual(await readJson(raw), { event_id: id });
});

test.serial('in test apps, a body that drifts from its schema fails the request with a 500', async (t) => {
  for (const drifted of [{}, { event_id: 42 }, { event_id: 'x', extra: true }]) {
    answers.next = drifted;
    t.is((await app.request('/api/test/echo')).status, 500, JSON.stringify(drifted));
    t.is((await app.request('/api/test/echo-raw')).status, 500, JSON.stringify(drifted));
  }
});

test('in test apps, an error status the route does not document fails the request with a 500', async (t) => {
  t.is((await app.request('/api/test/refuse')).status, 500);
  const documented = await app.request('/api/test/refuse-documented');
  t.is(documented.status, 402);
  t.is((await readJson(documented)).code, 'INSUFFICIENT_BALANCE');
});
