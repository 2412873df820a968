import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { startRoundRobinProxy } from '../test/helpers/round-robin-proxy.js';
import { createBenchDatabase } from './bench-database.js';
import { clearPipelineQueues } from './job-pickup.js';
import { log } from './log.js';
import { benchTenants, type PipelineSettings, REQUEST_TIMEOUT_MS } from './pipeline.js';
import { type PhaseReport, runPhase } from './pipeline-phase.js';
import { newAppKey, type ServiceOptions, startWebServer } from './web-server.js';
import { startWebhookReceiver } from './webhook-receiver.js';
import { startWorkerProcesses } from './worker-processes.js';

export interface ScaledPipelineReport {
  webs: number;
  workers: number;
  invoices: number;
  one_tenant: PhaseReport;
  many_tenants: PhaseReport;
  /** How many requests each web process answered (round-robin per request). */
  requests_per_web: number[];
  seconds: number;
}

const WEBS = 2;
const WORKERS = 2;

/**
 * The `pipeline` scenario scaled out (`pipeline_scale_out`): two web processes behind a
 * round-robin proxy and two worker processes, on a database of its own; the same phases as the
 * two-worker phases of `pipeline` (one tenant, then many), so the two can be read side by side.
 */
export async function measureScaledPipeline(settings: PipelineSettings): Promise<ScaledPipelineReport> {
  const began = performance.now();
  const database = await createBenchDatabase();
  const pool = new pg.Pool({
    connectionString: database.url,
    max: 2,
    application_name: 'einvoice-bench',
    query_timeout: REQUEST_TIMEOUT_MS,
  });
  // an idle connection the server ends (a restart, another test terminating backends) must not end the run
  pool.on('error', (err) => log(`bench pool: ${err.message}`));
  const receiver = await startWebhookReceiver();
  const service: ServiceOptions = { appKey: newAppKey(), env: { ALLOW_PRIVATE_URLS: 'true' } };
  const stops: (() => Promise<void>)[] = [];
  try {
    const webs = await Promise.all(Array.from({ length: WEBS }, () => startWebServer(database.url, service)));
    stops.push(...webs.map((w) => w.stop));
    const proxy = await startRoundRobinProxy(webs.map((w) => Number(new URL(w.baseUrl).port)));
    stops.push(proxy.close);
    const tenants = await benchTenants(database.url, proxy.url, receiver, settings.tenants + 1, 'pipeline_scale_out');
    log(`pipeline_scale_out: starting ${WORKERS} worker processes behind ${WEBS} web processes`);
    const workers = await startWorkerProcesses(WORKERS, database.url, service);
    stops.push(workers.stop);
    const phase = async (group: typeof tenants, prefix: string, label: string) => {
      const report = await runPhase({
        baseUrl: proxy.url,
        pool,
        receiver,
        tenants: group,
        workers: WORKERS,
        count: settings.invoices,
        prefix,
        connections: settings.connections,
        createTimeoutMs: settings.create_timeout_s * 1000,
        drainTimeoutMs: settings.drain_timeout_s * 1000,
        label,
      });
      await clearPipelineQueues(pool);
      return report;
    };
    const one_tenant = await phase(tenants.slice(0, 1), 'S1', 'pipeline_scale_out one tenant');
    const many = tenants.slice(1);
    const many_tenants = await phase(many, 'S2', `pipeline_scale_out ${many.length} tenants`);
    return {
      webs: WEBS,
      workers: WORKERS,
      invoices: settings.invoices,
      one_tenant,
      many_tenants,
      requests_per_web: [...proxy.hits],
      seconds: Math.round((performance.now() - began) / 1000),
    };
  } finally {
    for (const stop of stops.reverse()) await stop();
    await receiver.close();
    await pool.end();
    await database.drop();
  }
}
