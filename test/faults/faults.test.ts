import test from 'ava';
import {
  type Creation,
  createInvoices,
  type FaultTenant,
  faultTenant,
  type Harness,
  request,
  retryUnacknowledged,
  sleep,
  startHarness,
  until,
} from './harness.js';
import { type Figures, printFigures, settleAndCount } from './invariants.js';

/**
 * The fault suite (`npm run test:faults`, docs/operations.md "Fault suite"): the Procfile's processes
 * from the build, on a PostgreSQL of the suite's own, killed and restarted under load; afterwards
 * every acknowledged creation exists exactly once and complete, nothing is done twice, the ledger
 * verifies and every balance equals the sum of its movements.
 */
let h: Harness;
const figures: Figures[] = [];

test.before(async () => {
  h = await startHarness();
});

test.after.always(async () => {
  for (const f of figures) printFigures(f);
  await h?.close();
});

async function tenants(count: number): Promise<FaultTenant[]> {
  const list: FaultTenant[] = [];
  for (let i = 0; i < count; i++) list.push(await faultTenant(h));
  return list;
}

/** Invoices of these tenants in the database (the suite's view of how far a load got). */
async function invoiceCount(list: FaultTenant[]): Promise<number> {
  const [{ n }] = await h.db('invoices')
    .whereIn(
      'tenant_id',
      list.map((t) => t.tenantId),
    )
    .count<{ n: number }[]>({ n: '*' });
  return Number(n);
}

const unanswered = (creations: Creation[]) => creations.filter((c) => c.id === null).length;

function assertClean(t: import('ava').ExecutionContext, f: Figures): void {
  figures.push(f);
  t.is(f.lost, 0, 'no acknowledged creation is lost');
  t.is(f.doubled, 0, 'nothing is done twice');
  t.is(f.half_written, 0, 'every invoice is complete: ledger entry, charge, documents, webhook');
  t.is(f.found, f.acknowledged, 'every acknowledged creation is found, complete');
  t.true(f.ledger_valid, 'the ledger verifies');
  t.true(f.balances_match, 'each balance equals the sum of its movements');
}

test.serial('kill -9 of the web process in the middle of 200 concurrent creations', async (t) => {
  const startedAt = Date.now();
  const list = await tenants(4);
  const load = createInvoices(h, list, 200, 'WEB', 200);
  // killed once some creations committed and others are in flight
  await until('some creations committed', async () => (await invoiceCount(list)) >= 20, 60_000);
  await h.web.kill9();
  const creations = await load;
  const atFirst = unanswered(creations);
  t.true(atFirst > 0, 'the kill cut some creations short');
  // the unanswered ones exist completely (their ledger entry and charge) or not at all
  const before = await settleCommitted(list);
  t.is(before.partial, 0, 'an unanswered creation is all or nothing');
  await h.web.start();
  await retryUnacknowledged(h, creations);
  const f = await settleAndCount(h, 'web kill -9 during 200 creations', list, creations, {
    startedAt,
    unansweredAtFirst: atFirst,
  });
  assertClean(t, f);
  t.is(f.acknowledged, 200, 'a retry with the same Idempotency-Key answers every creation');
});

/** Invoices without their ledger entry or charge, and charges or entries without their invoice. */
async function settleCommitted(list: FaultTenant[]): Promise<{ partial: number }> {
  const ids = list.map((t) => t.tenantId);
  const { rows } = await h.db.raw<{ rows: { n: number }[] }>(
    `select (select count(*)::int from invoices i where i.tenant_id = any(:ids) and (
               not exists (select 1 from fiscal_entries f where f.id = i.fiscal_entry_id)
               or (select count(*) from balance_transactions b where b.reference_id = i.id) <> 1))
          + (select count(*)::int from balance_transactions b where b.tenant_id = any(:ids)
               and b.type = 'invoice_created' and not exists (select 1 from invoices i where i.id = b.reference_id)) as n`,
    { ids },
  );
  return { partial: rows[0].n };
}

/** Submits every acknowledged invoice for transmission (the simulator provider). */
async function submitAll(creations: Creation[]): Promise<string[]> {
  const submitted: string[] = [];
  for (const c of creations) {
    if (!c.id) continue;
    const res = await request(h, 'POST', `/api/v1/invoices/${c.id}/submit`, c.tenant.liveKey, {});
    if (res.status >= 200 && res.status < 300) submitted.push(c.id);
    else throw new Error(`submit answered ${res.status}: ${JSON.stringify(res.body)}`);
  }
  return submitted;
}

test.serial('kill -9 of the worker during document generation, webhook delivery and transmission', async (t) => {
  const startedAt = Date.now();
  const list = await tenants(3);
  // a backlog first, so the worker is in the middle of every queue when it is killed
  await h.worker.stop();
  const creations = await createInvoices(h, list, 60, 'WRK', 20);
  const submitted = await submitAll(creations);
  // slow receivers: deliveries are in flight when the worker dies
  h.reply.current = () => ({ status: 200, delayMs: 300 });
  await h.worker.start();
  await until(
    'documents, webhooks and uploads under way',
    async () => {
      const [{ ready, uploaded }] = (
        await h.db.raw<{ rows: { ready: number; uploaded: number }[] }>(
          `select count(*) filter (where documents_status = 'ready')::int as ready,
                  count(*) filter (where pdp_id is not null)::int as uploaded
             from invoices where tenant_id = any(?)`,
          [list.map((l) => l.tenantId)],
        )
      ).rows;
      return ready >= 5 || uploaded >= 5 || h.receiver.requests.length >= 5;
    },
    60_000,
  );
  await h.worker.kill9();
  await sleep(500);
  await h.worker.start();
  // and once more, a little later
  await sleep(1500);
  await h.worker.kill9();
  await h.worker.start();
  const f = await settleAndCount(h, 'worker kill -9 during documents, webhooks, transmission', list, creations, {
    startedAt,
    unansweredAtFirst: 0,
    submitted,
  });
  h.reply.current = () => ({ status: 200 });
  assertClean(t, f);
  t.is(f.uploads?.uploaded, submitted.length, 'every submitted invoice is uploaded once');
});

test.serial('PostgreSQL crash and restart during load', async (t) => {
  const startedAt = Date.now();
  const list = await tenants(3);
  const load = createInvoices(h, list, 100, 'PG', 20);
  await until('some creations committed', async () => (await invoiceCount(list)) >= 15, 60_000);
  await h.cluster.restart({ downMs: 2000 });
  const creations = await load;
  const atFirst = unanswered(creations);
  // the processes were not restarted: they reconnect by themselves
  await retryUnacknowledged(h, creations);
  const f = await settleAndCount(h, 'PostgreSQL crash and restart during 100 creations', list, creations, {
    startedAt,
    unansweredAtFirst: atFirst,
  });
  assertClean(t, f);
  t.is(f.acknowledged, 100, 'a retry with the same Idempotency-Key answers every creation');
});

test.serial('webhook receivers answering 500, 429, slowly, and one never: retried on schedule, the rest reported', async (t) => {
  const startedAt = Date.now();
  const list = await tenants(2);
  const [flaky, dead] = list;
  // per delivery: 500, then 429 with Retry-After, then a slow 200; the dead endpoint always 503
  const attempts = new Map<string, number>();
  h.reply.current = (r) => {
    if (r.path.startsWith(dead.hookPath)) return { status: 503, body: 'down' };
    const id = String(r.headers['x-service-delivery'] ?? '');
    const n = (attempts.get(id) ?? 0) + 1;
    attempts.set(id, n);
    if (n === 1) return { status: 500, body: 'oops' };
    if (n === 2) return { status: 429, headers: { 'Retry-After': '1' } };
    return { status: 200, delayMs: 800 };
  };
  const creations = await createInvoices(h, [flaky], 10, 'HOOK', 10);
  const deadCreations = await createInvoices(h, [dead], 3, 'DEAD', 3);
  const f = await settleAndCount(h, 'webhook endpoint 500/429/slow', [flaky], creations, {
    startedAt,
    unansweredAtFirst: 0,
    timeoutMs: 60_000,
  });
  assertClean(t, f);
  // the dead endpoint: its deliveries end failed, recorded attempt by attempt, the invoices untouched
  const deliveries = await until(
    'the dead endpoint gives up',
    async () => {
      const rows = await h.db('webhook_deliveries').where({ tenant_id: dead.tenantId }).select('status');
      return rows.length > 0 && rows.every((r) => r.status === 'failed') ? rows : null;
    },
    60_000,
  );
  t.true(deliveries.length >= deadCreations.length);
  const attemptsLogged = await h.db('webhook_attempts').where({ tenant_id: dead.tenantId, success: false }).count<{ n: number }[]>({ n: '*' });
  t.true(Number(attemptsLogged[0].n) >= deadCreations.length * 2, 'each failed attempt is logged');
  h.reply.current = () => ({ status: 200 });
});
