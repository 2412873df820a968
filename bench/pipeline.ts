import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createDatabase } from '../domain/shared/database.js';
import { seedPlatformTenant } from '../test/helpers/identities.js';
import { createBenchDatabase } from './bench-database.js';
import { envInt } from './env.js';
import { type IdleReport, measureIdlePickup } from './idle-pickup.js';
import type { LoadTenant } from './invoice-load.js';
import { clearPipelineQueues } from './job-pickup.js';
import { log } from './log.js';
import { type BacklogReport, measureBacklog } from './pipeline-backlog.js';
import { type PhaseReport, runPhase } from './pipeline-phase.js';
import { newAppKey, type ServiceOptions, startWebServer } from './web-server.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';
import { startWorkerProcesses } from './worker-processes.js';

export interface PipelineSettings {
  invoices: number;
  tenants: number;
  connections: number;
  create_timeout_s: number;
  drain_timeout_s: number;
  idle_invoices: number;
  idle_timeout_s: number;
  /** Documents per worker process a backlog's `warm` figures leave out (its workers start cold). */
  backlog_warm_up: number;
  total_timeout_s: number;
}

export function pipelineSettings(): PipelineSettings {
  return {
    invoices: envInt('BENCH_PIPELINE_INVOICES', 2000, 1),
    tenants: envInt('BENCH_PIPELINE_TENANTS', 50, 2),
    connections: envInt('BENCH_PIPELINE_CONNECTIONS', 50, 1),
    create_timeout_s: envInt('BENCH_PIPELINE_CREATE_TIMEOUT', 60, 1),
    drain_timeout_s: envInt('BENCH_PIPELINE_DRAIN_TIMEOUT', 30, 1),
    idle_invoices: envInt('BENCH_PIPELINE_IDLE_INVOICES', 5, 0),
    idle_timeout_s: envInt('BENCH_PIPELINE_IDLE_TIMEOUT', 10, 1),
    backlog_warm_up: envInt('BENCH_PIPELINE_BACKLOG_WARMUP', 200, 0),
    total_timeout_s: envInt('BENCH_PIPELINE_TIMEOUT', 420, 10),
  };
}

/** A phase the overall timeout left out. */
export interface SkippedPhase {
  skipped: string;
}

export type PhaseOutcome = PhaseReport | SkippedPhase;

export interface WorkersReport {
  one_tenant: PhaseOutcome;
  many_tenants: PhaseOutcome;
}

export type BacklogOutcome = BacklogReport | SkippedPhase;

/** The document queue alone, from a backlog queued with no worker running (pipeline-backlog.ts). */
export interface BacklogsReport {
  one_worker: { one_tenant: BacklogOutcome; many_tenants: BacklogOutcome };
  two_workers: { one_tenant: BacklogOutcome; many_tenants: BacklogOutcome };
}

export interface PipelineReport {
  settings: PipelineSettings;
  idle: IdleReport | SkippedPhase;
  one_worker: WorkersReport;
  two_workers: WorkersReport;
  backlog: BacklogsReport;
  seconds: number;
}

/** The longest the bench waits for one request or query of its own (setup, polling). */
export const REQUEST_TIMEOUT_MS = 30_000;

/** Below this many seconds left, a phase is skipped rather than started and cut short at once. */
const MIN_PHASE_S = 10;

/**
 * The `pipeline` scenario on a database, web process and receiver of its own (the HTTP scenarios
 * leave thousands of document jobs queued, which workers would otherwise work first): idle pickup,
 * then each tenant mix with one worker process, then with two. Every phase is bounded, and the
 * whole by `total_timeout_s`: what ran out of time says what it reached.
 */
export async function measurePipeline(settings: PipelineSettings): Promise<PipelineReport> {
  const began = performance.now();
  const deadline = began + settings.total_timeout_s * 1000;
  const database = await createBenchDatabase();
  // a query that hangs must not hold the run: every wait of the bench is bounded
  const pool = new pg.Pool({
    connectionString: database.url,
    max: 2,
    application_name: 'einvoice-bench',
    query_timeout: REQUEST_TIMEOUT_MS,
  });
  const receiver = await startWebhookReceiver();
  // the workers decrypt the webhook secrets the web process stored; the receiver is on loopback
  const service: ServiceOptions = { appKey: newAppKey(), env: { ALLOW_PRIVATE_URLS: 'true' } };
  try {
    const web = await startWebServer(database.url, service);
    try {
      const tenants = await benchTenants(database.url, web.baseUrl, receiver, settings.tenants + 1);
      const single = [tenants[0]];
      const many = tenants.slice(1);
      let phase = 0;
      const remainingMs = () => deadline - performance.now();
      const load = async (group: LoadTenant[], workers: number, label: string): Promise<PhaseOutcome> => {
        phase++;
        if (remainingMs() < MIN_PHASE_S * 1000) return skipped(label);
        const report = await runPhase({
          baseUrl: web.baseUrl,
          pool,
          receiver,
          tenants: group,
          workers,
          count: settings.invoices,
          prefix: `P${phase}`,
          connections: settings.connections,
          createTimeoutMs: Math.min(settings.create_timeout_s * 1000, remainingMs() - 5000),
          drainTimeoutMs: Math.max(0, Math.min(settings.drain_timeout_s * 1000, remainingMs())),
          label,
        });
        // the next phase starts on an empty queue; what this one left is reported above
        const dropped = await clearPipelineQueues(pool);
        if (dropped > 0) log(`${label}: ${dropped} jobs left queued were dropped`);
        return report;
      };
      const withWorkers = async <T>(count: number, run: () => Promise<T>): Promise<T> => {
        // out of time: the phases skip themselves, without starting workers for nothing
        if (remainingMs() < MIN_PHASE_S * 1000) return run();
        log(`pipeline: starting ${count} worker process(es)`);
        const workers = await startWorkerProcesses(count, database.url, service);
        try {
          return await run();
        } finally {
          await workers.stop();
        }
      };
      const one = await withWorkers(1, async () => {
        const idle =
          settings.idle_invoices === 0
            ? { skipped: 'BENCH_PIPELINE_IDLE_INVOICES=0' }
            : await measureIdlePickup({
                baseUrl: web.baseUrl,
                pool,
                receiver,
                tenant: single[0],
                count: settings.idle_invoices,
                perInvoiceTimeoutMs: settings.idle_timeout_s * 1000,
                deadline,
              });
        return {
          idle,
          one_tenant: await load(single, 1, 'pipeline one tenant, 1 worker'),
          many_tenants: await load(many, 1, `pipeline ${many.length} tenants, 1 worker`),
        };
      });
      const two = await withWorkers(2, async () => ({
        one_tenant: await load(single, 2, 'pipeline one tenant, 2 workers'),
        many_tenants: await load(many, 2, `pipeline ${many.length} tenants, 2 workers`),
      }));
      const backlog = async (group: LoadTenant[], workers: number, label: string): Promise<BacklogOutcome> => {
        phase++;
        if (remainingMs() < MIN_PHASE_S * 1000) return skipped(label);
        const report = await measureBacklog({
          baseUrl: web.baseUrl,
          databaseUrl: database.url,
          pool,
          service,
          tenants: group,
          workers,
          warmUp: settings.backlog_warm_up,
          count: settings.invoices,
          prefix: `P${phase}`,
          connections: settings.connections,
          timeoutMs: Math.min(settings.create_timeout_s * 1000, remainingMs() - 5000),
          label,
        });
        await clearPipelineQueues(pool);
        return report;
      };
      const backlogs: BacklogsReport = {
        one_worker: {
          one_tenant: await backlog(single, 1, 'backlog one tenant, 1 worker'),
          many_tenants: await backlog(many, 1, `backlog ${many.length} tenants, 1 worker`),
        },
        two_workers: {
          one_tenant: await backlog(single, 2, 'backlog one tenant, 2 workers'),
          many_tenants: await backlog(many, 2, `backlog ${many.length} tenants, 2 workers`),
        },
      };
      return {
        settings,
        idle: one.idle,
        one_worker: { one_tenant: one.one_tenant, many_tenants: one.many_tenants },
        two_workers: two,
        backlog: backlogs,
        seconds: Math.round((performance.now() - began) / 1000),
      };
    } finally {
      await web.stop();
    }
  } finally {
    await receiver.close();
    await pool.end();
    await database.drop();
  }
}

const skipped = (label: string): SkippedPhase => {
  log(`${label}: skipped, BENCH_PIPELINE_TIMEOUT reached`);
  return { skipped: 'BENCH_PIPELINE_TIMEOUT reached before this phase' };
};

/**
 * `count` verified tenants, each with its sandbox `webhook_url` on the receiver (every event of the
 * tenant, `invoice.created` included), set over HTTP as a customer would.
 */
export async function benchTenants(
  databaseUrl: string,
  baseUrl: string,
  receiver: WebhookReceiver,
  count: number,
  scenario = 'pipeline',
): Promise<LoadTenant[]> {
  log(`${scenario}: ${count} tenants with a webhook each`);
  const db = createDatabase(databaseUrl, { poolMax: 1 });
  const tenants: LoadTenant[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const seeded = await seedPlatformTenant(db, { kyb: 'verified' });
      const res = await fetch(`${baseUrl}/api/v1/tenant/me`, {
        method: 'PUT',
        headers: { 'X-Tenant-Key': seeded.keys.sk_test, 'Content-Type': 'application/json' },
        body: JSON.stringify({ webhook_url: `${receiver.url}/${i}` }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      if (!res.ok) throw new Error(`PUT /api/v1/tenant/me answered ${res.status}: ${await res.text()}`);
      tenants.push({ tenantId: seeded.tenantId, key: seeded.keys.sk_test });
    }
  } finally {
    await db.destroy();
  }
  return tenants;
}
