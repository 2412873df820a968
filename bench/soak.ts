import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { renderFormat } from '../domain/documents/index.js';
import { createDatabase } from '../domain/shared/database.js';
import { DEFAULT_FINISHED_JOBS_KEEP_HOURS } from '../domain/shared/settings.js';
import { buildDocument } from '../test/fixtures/invoice-document-builder.js';
import { seedSubTenant } from '../test/helpers/identities.js';
import { startRoundRobinProxy } from '../test/helpers/round-robin-proxy.js';
import { createBenchDatabase } from './bench-database.js';
import { envInt } from './env.js';
import { connectToFake, type FakeSuperpdpInbox, startFakeSuperpdpInbox } from './fake-superpdp-inbox.js';
import { tenLineBody } from './invoice-load.js';
import { log } from './log.js';
import { benchTenants } from './pipeline.js';
import { onePagePdf } from './signature-document.js';
import { newAppKey, type ServiceOptions, startWebServer } from './web-server.js';
import { startWebhookReceiver } from './webhook-receiver.js';
import { startWorkerProcesses } from './worker-processes.js';

export interface SoakSettings {
  seconds: number;
  /** Requests started per second, whatever the answers' latency (an open workload). */
  rate: number;
  tenants: number;
  webs: number;
  workers: number;
  /** Supplier invoices per second the fake SuperPDP puts in the sub-tenants' inboxes (0: no inbox sync). */
  inboxRate: number;
  /** Seconds between two sync triggers (each queues one inbox sync per provider account). */
  inboxTriggerSeconds: number;
}

export function soakSettings(defaultSeconds: number): SoakSettings {
  return {
    seconds: envInt('SOAK_SECONDS', defaultSeconds, 1),
    rate: envInt('SOAK_RATE', 20, 1),
    tenants: envInt('SOAK_TENANTS', 10, 1),
    webs: envInt('SOAK_WEBS', 2, 1),
    workers: envInt('SOAK_WORKERS', 2, 1),
    inboxRate: envInt('SOAK_INBOX_RATE', 1, 0),
    inboxTriggerSeconds: envInt('SOAK_INBOX_TRIGGER_SECONDS', 5, 1),
  };
}

export interface RouteFigures {
  requests: number;
  /** Answers by status class: what a steady load must not produce is 5xx or transport errors. */
  status: Record<string, number>;
  errors: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  /** The first refusal's status and body, to tell a broken mix from a broken service. */
  first_refusal?: string;
}

export interface ProcessMemory {
  role: 'web' | 'worker';
  pid: number;
  rss_start_mb: number;
  rss_end_mb: number;
  rss_max_mb: number;
}

export interface TableSize {
  table: string;
  table_bytes: number;
  index_bytes: number;
  /** Growth over the run per invoice created, times 100,000. */
  per_100k_invoices_mb: number;
}

/** The inbox sync (`sync-incoming-invoices`) against the fake SuperPDP, triggered after each new invoice. */
export interface IncomingSyncFigures {
  /** Supplier invoices the fake put in the inboxes. */
  offered: number;
  /** Of those, stored as incoming invoices (one row each, by provider account and SuperPDP id). */
  synced: number;
  /** Rows beyond one per offered invoice: must be 0. */
  duplicates: number;
  /** Offered and still not stored once the drain gave up. */
  not_synced: number;
  /** Originals downloaded (a retried page downloads its files again). */
  downloads: number;
  /** Sync triggers (`POST /webhooks/superpdp`) that did not answer 2xx. */
  trigger_errors: number;
  /** From the invoice's arrival in the inbox to its row (`incoming_invoices.created_at`). */
  lag_p50_ms: number;
  lag_p99_ms: number;
  lag_max_ms: number;
}

export interface SoakReport {
  settings: SoakSettings;
  seconds: number;
  routes: Record<string, RouteFigures>;
  invoices_created: number;
  webhooks_delivered: number;
  incoming_sync: IncomingSyncFigures;
  processes: ProcessMemory[];
  database: {
    bytes_per_invoice: number;
    per_100k_invoices_mb: number;
    tables: TableSize[];
  };
  /** Rows at the start and end of the load, and after the queue drained (jobs purge, keys expire after 24 h). */
  bounded: {
    pgboss_job_start: number;
    pgboss_job_end: number;
    pgboss_job_by_state: Record<string, number>;
    idempotency_keys_start: number;
    idempotency_keys_end: number;
    idempotency_key_ttl_h: number;
    /** pg-boss's maintenance deletes finished jobs after this (its queue default, which the queues keep). */
    job_deletion_after_hours: number;
    /** What the purges hold the tables to at this rate: rows added per second times what they keep. */
    pgboss_job_steady_state_rows: number;
    idempotency_keys_steady_state_rows: number;
  };
}

const MAX_IN_FLIGHT = 64;
/** `purge-idempotency-keys` (hourly) deletes keys whose 24-hour window has passed. */
const IDEMPOTENCY_TTL_H = 24;
/** pg-boss deletes finished jobs after FINISHED_JOBS_KEEP_HOURS (the processes keep its default). */
const JOB_DELETION_HOURS = DEFAULT_FINISHED_JOBS_KEEP_HOURS;
/** The routes of the mix, in the order one cycle runs them: reads and creations dominate, as in use. */
const CYCLE = ['create', 'read', 'create', 'read', 'list', 'submit', 'signature', 'incoming', 'read'] as const;
type Route = (typeof CYCLE)[number];
const ROUTE_NAMES: Record<Route, string> = {
  create: 'POST /api/v1/sandbox/invoices',
  read: 'GET /api/v1/sandbox/invoices/{id}',
  list: 'GET /api/v1/sandbox/invoices',
  submit: 'POST /api/v1/sandbox/invoices/{id}/submit',
  signature: 'POST /api/v1/sandbox/signatures',
  incoming: 'POST /api/v1/tenant/sub-tenants/{id}/invoices/incoming',
};

/** A supplier's UBL invoice numbered `number`, as a sub-tenant receives it outside the network. */
const supplierUbl = (number: string): string =>
  renderFormat(
    buildDocument({ number, lines: [{ description: 'Papier A4', quantity: '10', unitPrice: '4.50' }] }),
    'ubl',
  )
    .find((f) => f.kind === 'ubl')!
    .content.toString('base64');

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 102.4) / 10;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const round = (n: number) => Math.round(n * 10) / 10;

async function relationSizes(pool: pg.Pool): Promise<Map<string, { table: number; index: number }>> {
  const { rows } = await pool.query<{ name: string; t: string; i: string }>(
    `select c.relname as name, pg_table_size(c.oid) as t, pg_indexes_size(c.oid) as i
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p') and n.nspname in ('public', 'pgboss')`,
  );
  return new Map(rows.map((r) => [r.name, { table: Number(r.t), index: Number(r.i) }]));
}

const countOf = async (pool: pg.Pool, sql: string) => Number((await pool.query<{ n: string }>(sql)).rows[0].n);

/**
 * A steady, mixed workload against `webs` web and `workers` worker processes behind a round-robin
 * proxy, on an existing migrated database: invoice creations (each with an Idempotency-Key), reads,
 * lists, sandbox submissions, signature requests, supplier invoices registered for a sub-tenant
 * (the incoming path: parsed in the parser pool), and the `invoice.created` webhooks the workers
 * deliver to a local receiver. Reports p99 per route, the RSS of every process, the database's
 * growth per invoice and what the queue and the idempotency keys hold.
 */
export async function runSoak(databaseUrl: string, settings: SoakSettings): Promise<SoakReport> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2, application_name: 'einvoice-soak' });
  // an idle connection the server ends (a restart, another test terminating backends) must not end the run
  pool.on('error', (err) => log(`bench pool: ${err.message}`));
  const receiver = await startWebhookReceiver();
  // the sub-tenants' production inboxes at a local SuperPDP; its triggers go through the proxy
  let serviceUrl = '';
  const clients = Array.from({ length: settings.tenants }, (_, i) => `soak-inbox-${i}`);
  const superpdp = await startFakeSuperpdpInbox(() => serviceUrl, clients);
  const service: ServiceOptions = {
    appKey: newAppKey(),
    env: {
      ALLOW_PRIVATE_URLS: 'true',
      SUPERPDP_BASE_URL: superpdp.url,
      SUPERPDP_WEBHOOK_SECRET: superpdp.webhookSecret,
    },
  };
  const webs = await Promise.all(Array.from({ length: settings.webs }, () => startWebServer(databaseUrl, service)));
  const stops: (() => Promise<void>)[] = webs.map((w) => w.stop);
  try {
    const workers = await startWorkerProcesses(settings.workers, databaseUrl, service);
    stops.push(workers.stop);
    const proxy = await startRoundRobinProxy(webs.map((w) => Number(new URL(w.baseUrl).port)));
    stops.push(proxy.close);
    serviceUrl = proxy.url;
    const tenants = await benchTenants(databaseUrl, proxy.url, receiver, settings.tenants, 'soak');
    const owner = createDatabase(databaseUrl, { poolMax: 1 });
    const subTenants = new Map<string, string>();
    /** The production sub-tenants' SuperPDP connections: the provider accounts the inbox sync reads. */
    const accounts: string[] = [];
    try {
      for (const [i, tenant] of tenants.entries()) {
        subTenants.set(tenant.key, await seedSubTenant(owner, tenant.tenantId));
        const inbox = await seedSubTenant(owner, tenant.tenantId, { environment: 'production', name: 'Inbox SAS' });
        accounts.push(
          await connectToFake(owner, service.appKey!, {
            tenantId: tenant.tenantId,
            subTenantId: inbox,
            clientId: clients[i],
          }),
        );
      }
    } finally {
      await owner.destroy();
    }
    const pdf = onePagePdf(20 * 1024).toString('base64');
    const processes = [
      ...webs.map((w) => ({ role: 'web' as const, pid: w.pid! })),
      ...workers.pids.map((pid) => ({ role: 'worker' as const, pid: pid! })),
    ];
    const rssStart = await Promise.all(processes.map((p) => rssMb(p.pid)));
    const rssMax = [...rssStart];
    const sizesStart = await relationSizes(pool);
    const jobsStart = await countOf(pool, 'select count(*) as n from pgboss.job');
    const keysStart = await countOf(pool, 'select count(*) as n from idempotency_keys');

    const latencies = new Map<Route, number[]>(CYCLE.map((r) => [r, []]));
    const statuses = new Map<Route, Record<string, number>>(CYCLE.map((r) => [r, {}]));
    const errors = new Map<Route, number>(CYCLE.map((r) => [r, 0]));
    const refusals = new Map<Route, string>();
    /** Invoices created so far, with the key of their tenant (another tenant's key answers 404). */
    const created: { id: string; key: string }[] = [];
    const toSubmit: { id: string; key: string }[] = [];
    let inFlight = 0;
    let n = 0;
    const request = async (route: Route, key: string): Promise<void> => {
      let path: string;
      let init: RequestInit = { headers: { 'X-API-Key': key } };
      const json = (body: string, extra: Record<string, string> = {}): RequestInit => ({
        method: 'POST',
        headers: { 'X-API-Key': key, 'Content-Type': 'application/json', ...extra },
        body,
      });
      if (route === 'create') {
        path = '/api/v1/sandbox/invoices';
        init = json(tenLineBody(`SOAK-${n}`), { 'Idempotency-Key': randomUUID() });
      } else if (route === 'read' && created.length > 0) {
        const invoice = created[Math.floor(Math.random() * created.length)];
        path = `/api/v1/sandbox/invoices/${invoice.id}`;
        init = { headers: { 'X-API-Key': invoice.key } };
      } else if (route === 'submit' && toSubmit.length > 0) {
        const invoice = toSubmit.shift()!;
        path = `/api/v1/sandbox/invoices/${invoice.id}/submit`;
        init = json('{}');
        init.headers = { ...init.headers, 'X-API-Key': invoice.key };
      } else if (route === 'signature') {
        path = '/api/v1/sandbox/signatures';
        init = json(
          JSON.stringify({
            title: 'Contrat de prestation',
            document: pdf,
            document_name: 'contrat.pdf',
            signers: [{ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', auth_method: 'email' }],
          }),
        );
      } else if (route === 'incoming') {
        path = `/api/v1/tenant/sub-tenants/${subTenants.get(key)}/invoices/incoming`;
        init = json(JSON.stringify({ file: { filename: `SUP-${n}.xml`, content: supplierUbl(`SUP-${n}`) } }));
      } else {
        path = '/api/v1/sandbox/invoices';
        route = 'list';
      }
      const began = performance.now();
      try {
        const res = await fetch(`${proxy.url}${path}`, { ...init, signal: AbortSignal.timeout(30_000) });
        const text = await res.text();
        latencies.get(route)!.push(performance.now() - began);
        const bucket = `${Math.floor(res.status / 100)}xx`;
        const counts = statuses.get(route)!;
        counts[bucket] = (counts[bucket] ?? 0) + 1;
        if (res.status >= 400 && !refusals.has(route)) refusals.set(route, `${res.status} ${text.slice(0, 300)}`);
        if (route === 'create' && res.status === 201) {
          const id = (JSON.parse(text) as { data?: { id?: string } }).data?.id;
          if (id) {
            created.push({ id, key });
            // submitted a few seconds later, once its documents had time to be generated
            setTimeout(() => toSubmit.push({ id, key }), 3000).unref();
          }
        }
      } catch {
        errors.set(route, errors.get(route)! + 1);
      }
    };

    log(
      `soak: ${settings.rate} req/s for ${settings.seconds} s on ${settings.webs} web + ${settings.workers} worker processes, ` +
        `${settings.inboxRate} supplier invoices/s into the inboxes, a sync trigger every ${settings.inboxTriggerSeconds} s`,
    );
    const began = performance.now();
    const end = began + settings.seconds * 1000;
    let triggerErrors = 0;
    // the inboxes fill at their own steady rate, beside the requests; a trigger now and then makes
    // the service read every inbox, as a periodic job would (SuperPDP itself calls nobody)
    const steadily = async (perSecond: number, work: () => Promise<void> | void) => {
      for (let i = 1; ; i++) {
        const wait = began + (i * 1000) / perSecond - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        if (performance.now() >= end) return;
        await work();
      }
    };
    const inboxLoad = Promise.all(
      settings.inboxRate === 0
        ? []
        : [
            steadily(settings.inboxRate, () => superpdp.offer()),
            steadily(1 / settings.inboxTriggerSeconds, () =>
              superpdp.trigger().catch((err: Error) => {
                triggerErrors++;
                if (triggerErrors === 1) log(`soak: ${err.message}`);
              }),
            ),
          ],
    );
    const pending = new Set<Promise<void>>();
    let lastSample = began;
    while (performance.now() < end) {
      const due = began + (n * 1000) / settings.rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      if (inFlight < MAX_IN_FLIGHT) {
        const route = CYCLE[n % CYCLE.length];
        const tenant = tenants[n % tenants.length];
        inFlight++;
        const p = request(route, tenant.key).finally(() => {
          inFlight--;
          pending.delete(p);
        });
        pending.add(p);
      } else {
        // over the in-flight cap the request is not sent: counted as an error of its route
        const route = CYCLE[n % CYCLE.length];
        errors.set(route, errors.get(route)! + 1);
      }
      n++;
      if (performance.now() - lastSample > 5000) {
        lastSample = performance.now();
        const now = await Promise.all(processes.map((p) => rssMb(p.pid)));
        now.forEach((mb, i) => {
          rssMax[i] = Math.max(rssMax[i], mb);
        });
        log(
          `soak: ${Math.round((lastSample - began) / 1000)} s, ${created.length} invoices, RSS ${now.join(' / ')} MB`,
        );
      }
    }
    await Promise.all(pending);
    await inboxLoad;
    const seconds = (performance.now() - began) / 1000;
    const rssEnd = await Promise.all(processes.map((p) => rssMb(p.pid)));
    const jobsEnd = await countOf(pool, 'select count(*) as n from pgboss.job');
    const keysEnd = await countOf(pool, 'select count(*) as n from idempotency_keys');
    // the webhooks of the last creations: a short wait for the queue to drain
    const drainUntil = performance.now() + 15_000;
    while (receiver.created.size < created.length && performance.now() < drainUntil) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const incoming = await drainInboxes(pool, superpdp, accounts, () => {
      triggerErrors++;
    });
    const byState = await pool.query<{ state: string; n: string }>(
      'select state, count(*) as n from pgboss.job group by state order by state',
    );
    await pool.query('vacuum analyze');
    const sizesEnd = await relationSizes(pool);
    const invoices = created.length;
    const tables: TableSize[] = [];
    let growth = 0;
    for (const [table, size] of sizesEnd) {
      const before = sizesStart.get(table) ?? { table: 0, index: 0 };
      const delta = size.table + size.index - before.table - before.index;
      growth += Math.max(0, delta);
      tables.push({
        table,
        table_bytes: size.table,
        index_bytes: size.index,
        per_100k_invoices_mb: invoices > 0 ? round(((Math.max(0, delta) / invoices) * 100_000) / 1_048_576) : 0,
      });
    }
    tables.sort((a, b) => b.per_100k_invoices_mb - a.per_100k_invoices_mb);
    const routes: Record<string, RouteFigures> = {};
    for (const route of new Set(CYCLE)) {
      const sorted = [...latencies.get(route)!].sort((a, b) => a - b);
      routes[ROUTE_NAMES[route]] = {
        requests: sorted.length + errors.get(route)!,
        status: statuses.get(route)!,
        errors: errors.get(route)!,
        p50_ms: round(percentile(sorted, 50)),
        p99_ms: round(percentile(sorted, 99)),
        max_ms: round(sorted.at(-1) ?? 0),
        ...(refusals.has(route) ? { first_refusal: refusals.get(route) } : {}),
      };
    }
    return {
      settings,
      seconds: Math.round(seconds),
      routes,
      invoices_created: invoices,
      webhooks_delivered: receiver.created.size,
      incoming_sync: { ...incoming, downloads: superpdp.downloads(), trigger_errors: triggerErrors },
      processes: processes.map((p, i) => ({
        ...p,
        rss_start_mb: rssStart[i],
        rss_end_mb: rssEnd[i],
        rss_max_mb: Math.max(rssMax[i], rssEnd[i]),
      })),
      database: {
        bytes_per_invoice: invoices > 0 ? Math.round(growth / invoices) : 0,
        per_100k_invoices_mb: invoices > 0 ? round(((growth / invoices) * 100_000) / 1_048_576) : 0,
        tables: tables.filter((t) => t.per_100k_invoices_mb > 0),
      },
      bounded: {
        pgboss_job_start: jobsStart,
        pgboss_job_end: jobsEnd,
        pgboss_job_by_state: Object.fromEntries(byState.rows.map((r) => [r.state, Number(r.n)])),
        idempotency_keys_start: keysStart,
        idempotency_keys_end: keysEnd,
        idempotency_key_ttl_h: IDEMPOTENCY_TTL_H,
        job_deletion_after_hours: JOB_DELETION_HOURS,
        pgboss_job_steady_state_rows: Math.round(((jobsEnd - jobsStart) / seconds) * JOB_DELETION_HOURS * 3600),
        idempotency_keys_steady_state_rows: Math.round(((keysEnd - keysStart) / seconds) * IDEMPOTENCY_TTL_H * 3600),
      },
    };
  } finally {
    for (const stop of stops.reverse()) await stop();
    await receiver.close();
    await superpdp.close();
    await pool.end();
  }
}

/** The provider accounts' stored rows: SuperPDP id and when each was stored. */
async function syncedRows(pool: pg.Pool, accounts: string[]): Promise<{ pdp_id: string; created_ms: string }[]> {
  const { rows } = await pool.query<{ pdp_id: string; created_ms: string }>(
    `select pdp_id, (extract(epoch from created_at) * 1000)::bigint as created_ms
       from incoming_invoices where source = 'provider' and provider_account_id = any($1)`,
    [accounts],
  );
  return rows;
}

/**
 * Waits (30 s at most) until every invoice the fake offered is stored, sending a trigger every
 * 2 seconds (what arrived after the last trigger's listing waits for the next one), then counts rows
 * per offered invoice and the lag of each.
 */
async function drainInboxes(
  pool: pg.Pool,
  superpdp: FakeSuperpdpInbox,
  accounts: string[],
  onTriggerError: () => void,
): Promise<Omit<IncomingSyncFigures, 'downloads' | 'trigger_errors'>> {
  const until = performance.now() + 30_000;
  let rows = await syncedRows(pool, accounts);
  while (new Set(rows.map((r) => r.pdp_id)).size < superpdp.offered.size && performance.now() < until) {
    await superpdp.trigger().catch(onTriggerError);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    rows = await syncedRows(pool, accounts);
  }
  const perOffer = new Map<string, number[]>();
  for (const r of rows) perOffer.set(r.pdp_id, [...(perOffer.get(r.pdp_id) ?? []), Number(r.created_ms)]);
  const lags: number[] = [];
  let synced = 0;
  for (const [id, offer] of superpdp.offered) {
    const stored = perOffer.get(String(id));
    if (!stored) continue;
    synced++;
    lags.push(Math.max(0, Math.min(...stored) - offer.offeredAt));
  }
  lags.sort((a, b) => a - b);
  return {
    offered: superpdp.offered.size,
    synced,
    duplicates: rows.length - perOffer.size,
    not_synced: superpdp.offered.size - synced,
    lag_p50_ms: round(percentile(lags, 50)),
    lag_p99_ms: round(percentile(lags, 99)),
    lag_max_ms: round(lags.at(-1) ?? 0),
  };
}

/** The bench's `soak` scenario: `runSoak` on a fresh bench database, 600 s unless SOAK_SECONDS says otherwise. */
export async function measureSoak(): Promise<SoakReport> {
  const database = await createBenchDatabase();
  try {
    return await runSoak(database.url, soakSettings(600));
  } finally {
    await database.drop();
  }
}

/** Transport errors, dropped requests and 5xx answers of a soak, one line per route that had any; an inbox sync that lost or doubled invoices. */
export function soakFailures(report: SoakReport): string[] {
  const sync = report.incoming_sync;
  return [
    ...Object.entries(report.routes)
      .filter(([, r]) => r.errors > 0 || (r.status['5xx'] ?? 0) > 0)
      .map(([route, r]) => `soak ${route}: ${r.errors} errors, ${r.status['5xx'] ?? 0} 5xx answers`),
    ...(sync.duplicates > 0 || sync.not_synced > 0 || sync.trigger_errors > 0
      ? [
          `soak inbox sync: ${sync.synced}/${sync.offered} synced, ${sync.duplicates} duplicates, ${sync.trigger_errors} trigger errors`,
        ]
      : []),
  ];
}
