import { randomUUID } from 'node:crypto';
import test from 'ava';
import type { Knex } from 'knex';
import { runMonthlyBilling } from '../../domain/billing/operations/index.js';
import { appendFiscalEntry } from '../../domain/ledger/fiscal-chain.js';
import { scheduleFiscalClosings } from '../../domain/ledger/operations/index.js';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import { postJson, readJson } from '../helpers/http.js';
import { seedPlatformTenant, seedUser, seedUserKey, seedVerifiedCompany } from '../helpers/identities.js';
import { BUYER_SIRET, invoiceBody, SELLER_SIRET } from '../helpers/invoice-bodies.js';
import { startProcess, stopProcess, WEB_MAIN, WORKER_MAIN, waitFor } from '../helpers/processes.js';
import { type RoundRobinProxy, startRoundRobinProxy } from '../helpers/round-robin-proxy.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';

/**
 * The deployment of the Procfile scaled out: two web and two worker processes built from dist/,
 * one PostgreSQL, a round-robin balancer in front of the webs. Everything a process could keep to
 * itself (rate-limit counters, idempotency keys, MCP sessions, the chain's sequence, cron runs)
 * must hold across them.
 */
let env: TestDeps;
let proxy: RoundRobinProxy;
const children: Awaited<ReturnType<typeof startProcess>>['child'][] = [];

const PUBLISHER = {
  PUBLISHER_NAME: 'Opérateur Facturation SAS',
  PUBLISHER_SIREN: '732829320',
  PUBLISHER_ADDRESS: '1 rue de la Paix, 75002 Paris',
};

test.before(async () => {
  env = await createTestDeps({ env: PUBLISHER });
  const common = {
    DATABASE_URL: env.database.url,
    APP_KEY: env.deps.config.appKey!.toString('hex'),
    ...PUBLISHER,
  };
  const started = await Promise.all([
    startProcess(WEB_MAIN, { ...common, PORT: '0', HOST: '127.0.0.1' }, 'listening'),
    startProcess(WEB_MAIN, { ...common, PORT: '0', HOST: '127.0.0.1' }, 'listening'),
    startProcess(WORKER_MAIN, common, 'ready'),
    startProcess(WORKER_MAIN, common, 'ready'),
  ]);
  children.push(...started.map((s) => s.child));
  proxy = await startRoundRobinProxy(started.slice(0, 2).map((s) => s.message.port as number));
});

test.after.always(async () => {
  await proxy?.close();
  const codes = await Promise.all(children.map((child) => stopProcess(child)));
  if (codes.some((code) => code !== 0)) throw new Error(`a process stopped with ${codes.join(', ')}`);
  await env?.close();
});

/** The backends that served the requests since `from`, each once, sorted. */
const backendsSince = (from: number): number[] => [...new Set(proxy.served.slice(from))].sort();

const via = (path: string, init?: RequestInit) => fetch(`${proxy.url}${path}`, init);

test.serial('a rate limit is shared: the 61st request of a minute, whichever web it reaches, is 429', async (t) => {
  const user = await seedUser(env.ownerDb);
  const companyId = await seedVerifiedCompany(env.ownerDb, user.tenantId);
  const key = await seedUserKey(env.ownerDb, user, { environment: 'production', companyId });
  const first = proxy.served.length;
  const statuses: number[] = [];
  // one after the other: the order of the counts is the order of the requests
  for (let i = 0; i < 61; i++) {
    const res = await via('/api/v1/balance', { headers: { 'X-API-Key': key } });
    await res.arrayBuffer();
    statuses.push(res.status);
  }
  t.deepEqual(backendsSince(first), [0, 1], 'both webs counted');
  t.is(statuses.filter((s) => s === 200).length, 60);
  t.is(statuses[60], 429, 'the limit of 60 per minute is one limit, not 60 per process');
});

test.serial('an Idempotency-Key replays across webs: the same answer, one invoice', async (t) => {
  const tenant = await seedPlatformTenant(env.ownerDb, { kyb: 'verified' });
  const body = invoiceBody();
  const headers = { 'X-API-Key': tenant.keys.sk_test, 'Idempotency-Key': randomUUID() };
  const first = proxy.served.length;
  const a = await via('/api/v1/invoices', postJson(body, headers));
  const b = await via('/api/v1/invoices', postJson(body, headers));
  t.deepEqual(proxy.served.slice(first).sort(), [0, 1], 'one request each web');
  t.is(a.status, 201);
  t.is(b.status, 201);
  t.is(b.headers.get('idempotent-replayed'), 'true');
  t.deepEqual(await readJson(b), await readJson(a));
  const rows = await env.ownerDb('invoices').where({ tenant_id: tenant.tenantId, invoice_number: body.invoice_number });
  t.is(rows.length, 1);
});

test.serial('an MCP session opened through one web is served by the other', async (t) => {
  const tenant = await seedPlatformTenant(env.ownerDb, { kyb: 'verified' });
  const headers = {
    'X-API-Key': tenant.keys.sk_test,
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
  };
  const rpc = (id: number, method: string, params: unknown, session?: string) =>
    via('/mcp', {
      method: 'POST',
      headers: session ? { ...headers, 'Mcp-Session-Id': session } : headers,
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
    });
  const first = proxy.served.length;
  const init = await rpc(0, 'initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'scale-out', version: '1' },
  });
  t.is(init.status, 200);
  const session = init.headers.get('mcp-session-id');
  await init.arrayBuffer();
  t.truthy(session);
  const calls = [];
  for (let i = 1; i <= 2; i++) {
    const res = await rpc(i, 'tools/call', { name: 'get_tenant_profile', arguments: {} }, session!);
    calls.push({ status: res.status, text: await res.text() });
  }
  t.deepEqual([...new Set(proxy.served.slice(first + 1, first + 3))].sort(), [0, 1], 'the calls reached both webs');
  for (const call of calls) {
    t.is(call.status, 200);
    t.true(call.text.includes(tenant.tenantId), 'the tool answered with the session’s tenant');
    t.false(call.text.includes('"isError":true'));
  }
});

test.serial('concurrent creations through both webs are each written once, in a gap-free chain', async (t) => {
  const tenant = await seedPlatformTenant(env.ownerDb, { kyb: 'verified' });
  const count = 25; // under the sandbox key's 30 per minute
  const numbers = Array.from({ length: count }, (_, i) => `SCALE-${i + 1}`);
  const first = proxy.served.length;
  const responses = await Promise.all(
    numbers.map((n) =>
      via('/api/v1/invoices', postJson(invoiceBody({ invoice_number: n }), { 'X-API-Key': tenant.keys.sk_test })),
    ),
  );
  for (const res of responses) await res.arrayBuffer();
  t.deepEqual(
    responses.map((r) => r.status),
    numbers.map(() => 201),
  );
  t.deepEqual(backendsSince(first), [0, 1]);
  const invoices = await env.ownerDb('invoices').where({ tenant_id: tenant.tenantId }).select('invoice_number');
  t.deepEqual(invoices.map((r) => r.invoice_number).sort(), [...numbers].sort());
  const entries = await env
    .ownerDb('fiscal_entries')
    .where({ tenant_id: tenant.tenantId, environment: 'sandbox' })
    .orderBy('sequence_number')
    .select('sequence_number', 'entry_type');
  t.deepEqual(
    entries.map((e) => Number(e.sequence_number)),
    Array.from({ length: count }, (_, i) => i + 1),
    'one entry per invoice, numbered 1..N without a gap or a duplicate',
  );
  t.true(entries.every((e) => e.entry_type === 'invoice_created'));
});

/** A chain whose first entry was recorded yesterday at noon UTC, so yesterday's closing is due. */
async function chainStartedYesterday(db: Knex, tenantId: string): Promise<string> {
  const yesterday = new Date(Date.now() - 86_400_000);
  const day = yesterday.toISOString().slice(0, 10);
  const entityId = randomUUID();
  await db.transaction((tx) =>
    appendFiscalEntry(
      tx,
      { tenantId, environment: 'sandbox', subTenantId: null },
      {
        entryType: 'payment',
        entityType: 'payment',
        entityId,
        fiscalDate: day,
        data: {
          payment_id: entityId,
          payment_reference: 'VIR-SCALE',
          invoice_id: randomUUID(),
          invoice_number: 'F-SCALE',
          direction: 'outgoing',
          payment_date: day,
          currency: 'EUR',
          amount: '120.00',
          seller_siret: SELLER_SIRET,
          seller_name: 'Vendeur SAS',
          buyer_siret: BUYER_SIRET,
          buyer_name: 'Acheteur SARL',
          recorded_at: `${day}T12:00:00.000Z`,
        },
        now: new Date(`${day}T12:00:00Z`),
      },
    ),
  );
  return day;
}

/** A tenant with paid usage in the middle of the month that ended (Europe/Paris). */
async function tenantWithLastMonthUsage(db: Knex) {
  const tenant = await seedPlatformTenant(db);
  await db('tenants')
    .where({ id: tenant.tenantId })
    .update({ legal_name: 'Plateforme Cliente SAS', vat_number: 'FR44732829320' });
  await db('balances').where({ tenant_id: tenant.tenantId }).update({ amount: '1000.00' });
  const now = new Date();
  const middle = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15, 12));
  await db('balance_transactions').insert(
    Array.from({ length: 3 }, (_, i) => ({
      tenant_id: tenant.tenantId,
      type: 'invoice_created',
      amount: '-0.04',
      balance_after: '1000.00',
      currency: 'EUR',
      reference_type: 'invoice',
      reference_id: randomUUID(),
      created_at: new Date(middle.getTime() + i * 60_000),
    })),
  );
  return tenant;
}

const jobsSettled = (queue: string) =>
  waitFor(async () => {
    const { rows } = await env.ownerDb.raw<{ rows: { state: string }[] }>(
      'select state from pgboss.job where name = ?',
      [queue],
    );
    return rows.length > 0 && rows.every((r) => r.state === 'completed') && rows;
  }, 60_000);

test.serial(
  'cron runs fired by both workers at once: one closing per chain and day, one billing invoice per month',
  async (t) => {
    const tenants = await Promise.all([1, 2, 3].map(() => seedPlatformTenant(env.ownerDb, { kyb: 'verified' })));
    const days = await Promise.all(tenants.map((tenant) => chainStartedYesterday(env.ownerDb, tenant.tenantId)));
    const billed = await tenantWithLastMonthUsage(env.ownerDb);

    // The two workers' schedules firing together, and the queued cron jobs the workers take.
    const system = systemCaller();
    await Promise.all([
      execute(scheduleFiscalClosings, {}, system, env.deps),
      execute(scheduleFiscalClosings, {}, system, env.deps),
      execute(runMonthlyBilling, {}, system, env.deps),
      execute(runMonthlyBilling, {}, system, env.deps),
      env.deps.boss.send('close-fiscal-periods', {}),
      env.deps.boss.send('run-monthly-billing', {}),
    ]);
    await jobsSettled('close-fiscal-periods');
    await jobsSettled('run-monthly-billing');
    // once more after the first runs are done (the singleton queue would have refused it before)
    await env.deps.boss.send('close-fiscal-periods', {});
    await env.deps.boss.send('run-monthly-billing', {});
    await jobsSettled('close-fiscal-periods');
    await jobsSettled('run-monthly-billing');
    await jobsSettled('close-fiscal-chain');
    await jobsSettled('bill-tenant-month');

    const workedBy = await env.ownerDb.raw<{ rows: { name: string; n: number }[] }>(
      `select name, count(*)::int as n from pgboss.job
      where name in ('close-fiscal-periods', 'run-monthly-billing') group by name order by name`,
    );
    t.deepEqual(
      workedBy.rows.map((r) => `${r.name} ${r.n}`),
      ['close-fiscal-periods 2', 'run-monthly-billing 2'],
    );
    for (const [i, tenant] of tenants.entries()) {
      const closings = await env
        .ownerDb('fiscal_closings')
        .where({ tenant_id: tenant.tenantId })
        .select('type', 'period_start');
      const daily = closings.filter((c) => c.type === 'daily');
      t.is(daily.length, 1, 'one daily closing for the chain');
      t.is(String(daily[0].period_start), days[i]);
      t.is(new Set(closings.map((c) => `${c.type} ${c.period_start}`)).size, closings.length, 'no period closed twice');
    }
    const invoices = await env.ownerDb('billing_invoices').where({ tenant_id: billed.tenantId });
    t.is(invoices.length, 1, 'one billing invoice for the month');
    const vat = await env.ownerDb('balance_transactions').where({ tenant_id: billed.tenantId, type: 'billing_vat' });
    t.is(vat.length, 1, 'the month is charged once');
  },
);
