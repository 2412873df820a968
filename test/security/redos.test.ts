import { Worker } from 'node:worker_threads';
import test, { type ExecutionContext } from 'ava';
import { ALL_SCHEMAS } from '../../schemas/index.js';
import { type SeededTenant, seedPlatformTenant } from '../helpers/identities.js';
import { startProcess, WEB_MAIN } from '../helpers/processes.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';
import { schemaPatterns } from './fuzz/schema-patterns.js';

/**
 * Patterns run on request input must not backtrack: ajv checks `pattern` even on a string far over
 * its `maxLength` (allErrors), so a super-linear pattern lets one request hold a CPU for minutes.
 * The app runs in its own process, so a hang fails the request's timeout instead of blocking this test.
 */
const FIVE_MB = 5 * 1024 * 1024;
const BOUND_MS = 1000;

let env: TestDeps;
let web: Awaited<ReturnType<typeof startProcess>>;
let url: string;
let tenant: SeededTenant;

test.before(async () => {
  env = await createTestDeps();
  web = await startProcess(
    WEB_MAIN,
    {
      DATABASE_URL: env.database.url,
      APP_KEY: env.deps.config.appKey!.toString('hex'),
      PORT: '0',
      HOST: '127.0.0.1',
      RATE_LIMIT_SCALE: '0',
      // Room for the 5 MB inputs: they must reach validation, not stop at the body limit.
      JSON_BODY_LIMIT: '8mb',
    },
    'listening',
  );
  url = `http://127.0.0.1:${web.message.port}`;
  tenant = await seedPlatformTenant(env.ownerDb, { kyb: 'verified' });
});
test.after.always(async () => {
  if (web && web.child.exitCode === null) {
    const exited = new Promise((resolve) => web.child.once('exit', resolve));
    web.child.kill('SIGKILL');
    await exited;
  }
  await env?.close();
});

const journal = (label: string) => ({ code: 'VT', label });
const account = (label: string) => ({ number: '706000', label });
const ACCOUNT_NAMES = ['customers', 'revenue', 'vat_collected', 'bank', 'suppliers', 'purchases', 'vat_deductible'];

/** The routes that run the FEC label pattern (fiscal rule values fec.journals and fec.accounts). */
const FEC_LABEL_REQUESTS: { name: string; method: string; path: string; body: (label: string) => unknown }[] = [
  {
    name: 'a fec.journals version (PUT /rules/{rule})',
    method: 'PUT',
    path: '/api/v1/tenant/fiscal/rules/fec.journals',
    body: (label) => ({
      value: { sales: journal(label), purchases: journal('Achats'), bank: journal('Banque') },
      effective_from: '2026-01-01',
    }),
  },
  {
    name: 'a fec.accounts version (PUT /rules/{rule})',
    method: 'PUT',
    path: '/api/v1/tenant/fiscal/rules/fec.accounts',
    body: (label) => ({
      value: Object.fromEntries(ACCOUNT_NAMES.map((name) => [name, account(name === 'bank' ? label : 'Compte')])),
      effective_from: '2026-01-01',
    }),
  },
  {
    name: 'a new rule under the fec namespace (POST /rules)',
    method: 'POST',
    path: '/api/v1/tenant/fiscal/rules',
    body: (label) => ({
      key: 'fec.journals',
      value: { sales: journal(label), purchases: journal('Achats'), bank: journal('Banque') },
      description: 'Journaux',
      effective_from: '2026-01-01',
    }),
  },
];

/** The FEC label's worst inputs: a run the label accepts, then a separator or line break. */
const FEC_HOSTILE = [
  (n: number) => `${'a'.repeat(n)}|`,
  (n: number) => `${' '.repeat(n)}|`,
  (n: number) => `${'a'.repeat(n)}\n`,
];

/**
 * The time of one request, which must be refused (422): the 5 MB upload over loopback is part of it.
 */
async function timed(t: ExecutionContext, request: (typeof FEC_LABEL_REQUESTS)[number], label: string) {
  const body = JSON.stringify(request.body(label));
  const started = Date.now();
  const res = await fetch(`${url}${request.path}`, {
    method: request.method,
    headers: { 'Content-Type': 'application/json', 'X-Tenant-Key': tenant.keys.sk_test },
    body,
    signal: AbortSignal.timeout(BOUND_MS * 10),
  });
  t.is(res.status, 422, await res.text());
  return Date.now() - started;
}

for (const request of FEC_LABEL_REQUESTS) {
  test(`the FEC label pattern answers ${request.name} with a 5 MB hostile label about as fast as a plain one`, async (t) => {
    for (const hostile of FEC_HOSTILE) {
      // Against a plain label of the same size, sent alternately on the same machine: a loaded
      // machine slows both alike, while super-linear work on 5 MB takes minutes (the 10 s timeout).
      const plain: number[] = [];
      const worst: number[] = [];
      for (let attempt = 0; attempt < 2; attempt++) {
        plain.push(await timed(t, request, 'a'.repeat(FIVE_MB + 1)));
        worst.push(await timed(t, request, hostile(FIVE_MB)));
      }
      const [p, w] = [Math.min(...plain), Math.min(...worst)];
      t.true(w < 3 * p + BOUND_MS / 4, `hostile ${worst.join(' and ')} ms, plain ${plain.join(' and ')} ms`);
    }
  });
}

/** Runs the patterns on 100,000-character hostile strings in a worker, terminated after `limitMs`. */
function timePatterns(patterns: string[], length: number, limitMs: number) {
  return new Promise<{ results: { pattern: string; ms: number; input: string }[]; timedOut: string | null }>(
    (resolve, reject) => {
      const results: { pattern: string; ms: number; input: string }[] = [];
      const worker = new Worker(new URL('./fuzz/time-patterns.js', import.meta.url), {
        workerData: { patterns, length },
      });
      let timedOut: string | null = null;
      const timer = setTimeout(() => {
        timedOut = patterns[results.length] ?? '(unknown)';
        void worker.terminate();
      }, limitMs);
      worker.on('message', (result) => results.push(result));
      worker.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      worker.on('exit', () => {
        clearTimeout(timer);
        resolve({ results, timedOut });
      });
    },
  );
}

test('every pattern of the schemas is linear: 100,000-character hostile strings take under 250 ms each', async (t) => {
  const patterns = schemaPatterns(ALL_SCHEMAS);
  t.true(patterns.length > 10, 'the schemas were read');
  const { results, timedOut } = await timePatterns(patterns, 100_000, 10_000);
  t.is(timedOut, null, `a pattern did not finish: ${timedOut}`);
  const slow = results.filter((r) => r.ms > 250).map((r) => `${r.pattern}: ${Math.round(r.ms)} ms on ${r.input}`);
  t.deepEqual(slow, []);
});
