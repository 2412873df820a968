import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { BOSS_SCHEMA } from '../domain/shared/boss.js';
import { type CpuReading, clusterCpu, machineCpu, processCpu, processRunQueueWait } from './cpu-meter.js';
import { createInvoices, type LoadTenant } from './invoice-load.js';
import { databaseNow, documentsPerSecond, documentsPerSecondAfter, type QueueWindow } from './job-pickup.js';
import { log } from './log.js';
import type { ServiceOptions } from './web-server.js';
import { startWorkerProcesses } from './worker-processes.js';

const POLL_MS = 100;

export interface BacklogReport {
  tenants: number;
  workers: number;
  /** Document jobs queued before the workers started. */
  queued: number;
  documents_ready: number;
  /** From the workers' start until the last document was ready; null if the timeout came first. */
  drained_after_s: number | null;
  /** Completed document jobs over the first start to the last completion (pg-boss's timestamps). */
  documents_per_s: number;
  /**
   * CPU milliseconds per document of the worker processes and of the PostgreSQL cluster while they
   * drained: unlike the rate, these hold whatever else the machine is doing. Null when unreadable.
   */
  worker_cpu_ms_per_document: number | null;
  database_cpu_ms_per_document: number | null;
  /** The whole machine's (every process and the kernel): what the drain kept busy. */
  machine_cpu_ms_per_document: number | null;
  /**
   * Milliseconds per document the workers' main threads (where documents are rendered) waited,
   * runnable, for a core: the share of the machine they did not get. Null when unreadable.
   */
  worker_wait_for_cpu_ms_per_document: number | null;
  /**
   * The same once the workers are warm: after their first `after_documents` (`backlog_warm_up`
   * per worker process), which a fresh process renders on a cold JIT. The in-process rate it
   * compares with is measured after a warm-up too, and a worker that has run for a while is warm.
   * Null when the backlog was not larger than the warm-up.
   */
  warm: WarmDrain | null;
}

export interface WarmDrain {
  after_documents: number;
  /** Documents made after the warm-up, and the seconds they took (from the bench's polls). */
  documents: number;
  seconds: number;
  documents_per_s: number;
  worker_cpu_ms_per_document: number | null;
  database_cpu_ms_per_document: number | null;
  machine_cpu_ms_per_document: number | null;
  worker_wait_for_cpu_ms_per_document: number | null;
}

export interface BacklogOptions {
  baseUrl: string;
  databaseUrl: string;
  pool: pg.Pool;
  service: ServiceOptions;
  tenants: LoadTenant[];
  workers: number;
  /** Documents per worker process left out of the `warm` figures. */
  warmUp: number;
  count: number;
  prefix: string;
  connections: number;
  timeoutMs: number;
  label: string;
}

/**
 * The document queue's own rate: `count` invoices created with no worker running, their other jobs
 * (events, webhooks) dropped, then `workers` worker processes started on the queued documents
 * alone. What it measures is the queue and the worker, not the pace of creation, so it compares with
 * the in-process `document_generate` rate: their ratio is the queue's overhead.
 */
export async function measureBacklog(options: BacklogOptions): Promise<BacklogReport> {
  const { pool, prefix, label } = options;
  const window = { tenantIds: options.tenants.map((t) => t.tenantId), since: await databaseNow(pool) };
  log(`${label}: queueing ${options.count} invoices' documents with no worker running`);
  const creation = await createInvoices({
    baseUrl: options.baseUrl,
    tenants: options.tenants,
    count: options.count,
    prefix,
    connections: options.connections,
    timeoutMs: options.timeoutMs,
  });
  await pool.query(`delete from ${BOSS_SCHEMA}.job where name <> 'generate-invoice-documents' and state = 'created'`);
  const queued = Number(
    (
      await pool.query<{ n: number }>(
        `select count(*)::int as n from ${BOSS_SCHEMA}.job where name = 'generate-invoice-documents' and state = 'created'`,
      )
    ).rows[0].n,
  );
  const database = await clusterCpu(options.databaseUrl);
  const workers = await startWorkerProcesses(options.workers, options.databaseUrl, options.service);
  const workerCpu: CpuReading = () => sumOf(workers.pids.map((pid) => processCpu(pid)()));
  const workerWait: CpuReading = () => sumOf(workers.pids.map((pid) => processRunQueueWait(pid)()));
  const readCpu = (): CpuReadings => ({
    worker: workerCpu(),
    database: database(),
    wait: workerWait(),
    machine: machineCpu(),
  });
  const cpuBefore = readCpu();
  const started = performance.now();
  const warmUp = options.warmUp * options.workers;
  let warmAt: { at: number; ready: number; cpu: CpuReadings } | null =
    warmUp === 0 ? { at: started, ready: 0, cpu: cpuBefore } : null;
  let ready = 0;
  let drainedAt: number | null = null;
  let cpuAfter = cpuBefore;
  try {
    const deadline = started + options.timeoutMs;
    while (performance.now() < deadline) {
      ready = await readyCount(pool, prefix, window);
      if (warmAt === null && ready >= warmUp && ready < creation.created) {
        warmAt = { at: performance.now(), ready, cpu: readCpu() };
      }
      if (ready >= creation.created) {
        drainedAt = performance.now();
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } finally {
    cpuAfter = readCpu();
    await workers.stop();
  }
  const warmDocuments = warmAt === null ? 0 : ready - warmAt.ready;
  const warm: WarmDrain | null =
    warmAt === null || drainedAt === null || warmDocuments === 0
      ? null
      : {
          after_documents: warmAt.ready,
          documents: warmDocuments,
          seconds: Math.round(drainedAt - warmAt.at) / 1000,
          documents_per_s: await documentsPerSecondAfter(pool, window, warmAt.ready),
          worker_cpu_ms_per_document: perDocument(warmAt.cpu.worker, cpuAfter.worker, warmDocuments),
          database_cpu_ms_per_document: perDocument(warmAt.cpu.database, cpuAfter.database, warmDocuments),
          machine_cpu_ms_per_document: perDocument(warmAt.cpu.machine, cpuAfter.machine, warmDocuments),
          worker_wait_for_cpu_ms_per_document: perDocument(warmAt.cpu.wait, cpuAfter.wait, warmDocuments),
        };
  const report: BacklogReport = {
    tenants: options.tenants.length,
    workers: options.workers,
    queued,
    documents_ready: ready,
    drained_after_s: drainedAt === null ? null : Math.round((drainedAt - started) / 10) / 100,
    documents_per_s: await documentsPerSecond(pool, window),
    worker_cpu_ms_per_document: perDocument(cpuBefore.worker, cpuAfter.worker, ready),
    database_cpu_ms_per_document: perDocument(cpuBefore.database, cpuAfter.database, ready),
    machine_cpu_ms_per_document: perDocument(cpuBefore.machine, cpuAfter.machine, ready),
    worker_wait_for_cpu_ms_per_document: perDocument(cpuBefore.wait, cpuAfter.wait, ready),
    warm,
  };
  log(
    `${label}: ${report.documents_ready} of ${queued} ready, ${report.documents_per_s} documents/s, CPU ms per document: ` +
      `worker ${report.worker_cpu_ms_per_document} (waiting for a core ${report.worker_wait_for_cpu_ms_per_document}), ` +
      `database ${report.database_cpu_ms_per_document}, machine ${report.machine_cpu_ms_per_document}` +
      (warm === null
        ? ''
        : `; warm (after ${warm.after_documents}): ${warm.documents_per_s} documents/s, machine ${warm.machine_cpu_ms_per_document}`),
  );
  return report;
}

interface CpuReadings {
  worker: number | null;
  database: number | null;
  wait: number | null;
  machine: number | null;
}

/** Through the tenants' list index: polled, it must not cost the database a scan. */
async function readyCount(pool: pg.Pool, prefix: string, window: QueueWindow): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    `select count(*)::int as n from invoices
      where tenant_id = any($2) and environment = 'sandbox' and created_at >= $3
        and invoice_number like $1 and documents_status <> 'pending'`,
    [`${prefix}-%`, window.tenantIds, window.since],
  );
  return rows[0].n;
}

const sumOf = (values: (number | null)[]): number | null =>
  values.some((v) => v === null) ? null : values.reduce<number>((a, v) => a + (v as number), 0);

const perDocument = (before: number | null, after: number | null, documents: number): number | null =>
  before === null || after === null || documents === 0 ? null : Math.round(((after - before) / documents) * 100) / 100;
