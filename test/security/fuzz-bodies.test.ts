import test from 'ava';
import { ROUTES } from '../../api/routes/index.js';
import { CONSUMES_CREDENTIALS } from '../contract/authorization-matrix.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { countChanges, domainCounts } from './fuzz/domain-counts.js';
import {
  bodyRoutes,
  buildCase,
  CALLBACK_SECRET,
  describeCase,
  routeId,
  routePrng,
  SCHEDULE,
} from './fuzz/fuzz-cases.js';
import { type FuzzWorld, RESTORES, renewCredentials, seedWorld } from './fuzz/fuzz-world.js';
import { fuzzSeed } from './fuzz/prng.js';

/**
 * Structure-aware fuzzing of every route that takes a body: bodies generated from the operation's
 * input schema, then broken (wrong types, nulls, missing and extra fields, 1 MB strings, 10,000
 * levels of nesting, odd Unicode and numbers, duplicate keys, non-JSON, wrong Content-Type), sent
 * with a credential the route accepts (multipart too, an Idempotency-Key on a quarter of them). No
 * answer may be a 5xx or take over 10 s, every error must be in the specification's shape, and a
 * refused request must leave every domain table as it was. Replay a failure with FUZZ_SEED=<seed>.
 * The app runs in this process: a pattern that blocks the event loop is cut off by ava's timeout
 * instead (redos.test.ts runs the app in a process of its own).
 */
const SEED = fuzzSeed();
const TIMEOUT_MS = 10_000;
const ROUTES_FUZZED = bodyRoutes(ROUTES);

let app: TestApp;
let world: FuzzWorld;
let sent = 0;
const covered = new Set<string>();

test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0', SUPERPDP_WEBHOOK_SECRET: CALLBACK_SECRET } });
  world = await seedWorld(app);
});
test.after.always(() => app?.close());

for (const route of ROUTES_FUZZED) {
  const id = routeId(route);
  test.serial(`${id}: fuzzed bodies get no 5xx, no hang, no half-write`, async (t) => {
    const rng = routePrng(SEED, route);
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    for (const mutation of SCHEDULE) {
      const fuzzCase = buildCase(route, mutation, world, app.deps.schemas, rng);
      const before = await domainCounts(app.ownerDb);
      const started = Date.now();
      let status: number;
      let answer = '';
      try {
        const res = await app.request(fuzzCase.path, {
          method: fuzzCase.method,
          headers: fuzzCase.headers,
          body: Buffer.from(fuzzCase.body.text),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
        answer = await res.text();
        status = res.status;
      } catch (err) {
        failures.push(`no answer in ${TIMEOUT_MS} ms (${(err as Error).name}): ${describeCase(fuzzCase)}`);
        continue;
      } finally {
        sent++;
      }
      const elapsed = Date.now() - started;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      const problem = (what: string) =>
        failures.push(`${what}: ${describeCase(fuzzCase)} → ${status} ${answer.slice(0, 300)}`);
      if (status >= 500) problem(`${status}`);
      if (elapsed > TIMEOUT_MS) problem(`answered after ${elapsed} ms`);
      if (status === 401 && fuzzCase.authenticated) problem('credential refused, the body was not reached');
      if (status >= 400 && !hasErrorShape(status, answer)) problem('not in the error shape of the specification');
      if (status < 200 || status > 299) {
        const changes = countChanges(before, await domainCounts(app.ownerDb));
        if (changes.length) problem(`refused but wrote rows (${changes.join(', ')})`);
      } else {
        if (CONSUMES_CREDENTIALS.has(id)) await renewCredentials(app, world);
        await RESTORES[id]?.(app, world);
      }
    }
    covered.add(id);
    t.log([...statuses].map(([code, n]) => `${code}×${n}`).join(' '));
    t.deepEqual(failures, [], `FUZZ_SEED=${SEED} reproduces these`);
  });
}

/**
 * Validation (422): `{message, errors: {"path.0.field": [msg]}}`; other errors, a 422 of a business
 * rule among them (CREDIT_EXCEEDS_REMAINING): `{message, error, code, error_code}`.
 */
function hasErrorShape(status: number, text: string): boolean {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text);
  } catch {
    return false;
  }
  if (typeof body?.message !== 'string') return false;
  if (status === 422 && 'errors' in body) {
    const errors = body.errors as Record<string, unknown> | undefined;
    return (
      !!errors &&
      typeof errors === 'object' &&
      Object.values(errors).every((list) => Array.isArray(list) && list.every((m) => typeof m === 'string'))
    );
  }
  return typeof body.error === 'string' && typeof body.code === 'string' && body.error_code === body.code;
}

test.serial('every route that takes a body was fuzzed, with 1,000 bodies or more in all', (t) => {
  t.log(`FUZZ_SEED=${SEED}: ${sent} bodies over ${covered.size} routes`);
  t.deepEqual(
    ROUTES_FUZZED.map(routeId).filter((id) => !covered.has(id)),
    [],
  );
  t.true(sent >= 1000, `${sent} bodies sent`);
});
