import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { machineCpu, ownCpu } from './cpu-meter.js';
import { type CreationReport, createInvoices, type LoadTenant } from './invoice-load.js';
import { databaseNow, documentsPerSecond, type QueuePickup, type QueueWindow, queuePickup } from './job-pickup.js';
import { log } from './log.js';
import type { WebhookReceiver } from './webhook-receiver.js';

/** How often the drain looks at the invoices: the resolution of the "ready after" figures. */
const POLL_MS = 250;
const PROGRESS_EVERY_MS = 5_000;

export interface PhaseReport {
  tenants: number;
  workers: number;
  /** True when every created invoice had its documents and its webhook within the timeouts. */
  finished: boolean;
  /** One line for people: what the phase reached, e.g. "documents_ready: 412 of 2000 after 30 s". */
  progress: string;
  creation: CreationReport;
  /** Invoices the phase created (rows in the database), the "of" of the counts below. */
  invoices: number;
  documents_ready: number;
  documents_failed: number;
  webhooks_delivered: number;
  /** Seconds waited after the last creation (at most the drain timeout). */
  waited_s: number;
  /** From the last creation until the last invoice's documents were ready; null if they never were. */
  documents_ready_after_s: number | null;
  /** From the last creation until the last `invoice.created` reached the receiver; null if one never did. */
  webhooks_delivered_after_s: number | null;
  /** The later of the two: what the user of the last invoice waited for after creating it. */
  all_done_after_s: number | null;
  /** Documents per second through the queue: completed document jobs over the first start to the last end. */
  documents_per_s: number;
  /** Documents per second after the last creation only (the backlog alone, without the web process); null without one. */
  drain_documents_per_s: number | null;
  pickup_ms: Record<string, QueuePickup>;
  /** What the phase cost the machine; null where `/proc/stat` cannot be read. */
  cpu: PhaseCpu | null;
}

/**
 * CPU milliseconds per invoice created, from the phase's first creation to the end of its drain:
 * the whole machine's, the bench's own process's (load generator and webhook receiver, elsewhere in
 * a deployment) and the rest, the service's (web, workers, PostgreSQL, the kernel's work for them).
 * `sustainable_invoices_per_s` is the rate the machine keeps up with at that cost, load generator
 * included (its cores ÷ the machine's CPU per invoice): a burst created faster queues documents and
 * webhooks faster than the machine makes them, and their pickup grows with the burst.
 */
export interface PhaseCpu {
  cores: number;
  machine_ms_per_invoice: number;
  bench_ms_per_invoice: number;
  service_ms_per_invoice: number;
  sustainable_invoices_per_s: number;
}

export interface PhaseOptions {
  baseUrl: string;
  pool: pg.Pool;
  receiver: WebhookReceiver;
  tenants: LoadTenant[];
  workers: number;
  count: number;
  prefix: string;
  connections: number;
  createTimeoutMs: number;
  drainTimeoutMs: number;
  label: string;
}

interface Counts {
  total: number;
  ready: number;
  failed: number;
  webhooks: number;
  lastWebhookAt: number | null;
}

/**
 * One load phase: `count` invoices over HTTP with the workers running, then a wait (bounded) until
 * every invoice created has its documents and its `invoice.created` delivery, and what the queue did.
 */
export async function runPhase(options: PhaseOptions): Promise<PhaseReport> {
  const { pool, prefix, label } = options;
  const window = { tenantIds: options.tenants.map((t) => t.tenantId), since: await databaseNow(pool) };
  const cpuBefore = { machine: machineCpu(), bench: ownCpu() };
  log(`${label}: creating ${options.count} invoices for ${options.tenants.length} tenant(s)`);
  const { finishedAt, ...creation } = await createInvoices({
    baseUrl: options.baseUrl,
    tenants: options.tenants,
    count: options.count,
    prefix,
    connections: options.connections,
    timeoutMs: options.createTimeoutMs,
  });
  log(
    `${label}: ${creation.created} created in ${creation.seconds} s (${creation.requests_per_s} req/s)` +
      `${creation.timed_out ? ', stopped by its timeout' : ''}`,
  );
  let counts = await countPhase(options, prefix, window);
  const readyAtLastCreation = counts.ready;
  const backlogAtLastCreation = counts.total - counts.ready - counts.failed;
  let documentsAt: number | null = null;
  let lastProgress = performance.now();
  const deadline = finishedAt + options.drainTimeoutMs;
  for (;;) {
    const now = performance.now();
    if (documentsAt === null && counts.ready + counts.failed >= counts.total) documentsAt = now;
    if (documentsAt !== null && counts.webhooks >= counts.total) break;
    if (now >= deadline) break;
    if (now - lastProgress >= PROGRESS_EVERY_MS) {
      log(`${label}: ${describe(counts, (now - finishedAt) / 1000)}`);
      lastProgress = now;
    }
    await sleep(Math.min(POLL_MS, deadline - now));
    counts = await countPhase(options, prefix, window);
  }
  const cpu = phaseCpu(cpuBefore, { machine: machineCpu(), bench: ownCpu() }, counts.total);
  const waitedS = (performance.now() - finishedAt) / 1000;
  const webhooksDone = counts.webhooks >= counts.total;
  const after = (at: number | null) => (at === null ? null : round2(Math.max(0, at - finishedAt) / 1000));
  const documentsReadyAfter = after(documentsAt);
  const webhooksAfter = webhooksDone ? after(counts.lastWebhookAt) : null;
  const finished = documentsReadyAfter !== null && webhooksAfter !== null;
  const drainMs = (documentsAt ?? performance.now()) - finishedAt;
  const report: PhaseReport = {
    tenants: options.tenants.length,
    workers: options.workers,
    finished,
    progress: describe(counts, waitedS),
    creation,
    invoices: counts.total,
    documents_ready: counts.ready,
    documents_failed: counts.failed,
    webhooks_delivered: counts.webhooks,
    waited_s: round2(waitedS),
    documents_ready_after_s: documentsReadyAfter,
    webhooks_delivered_after_s: webhooksAfter,
    all_done_after_s: finished ? Math.max(documentsReadyAfter, webhooksAfter) : null,
    documents_per_s: await documentsPerSecond(pool, window),
    drain_documents_per_s:
      backlogAtLastCreation > 0 && drainMs > 0 ? round2((counts.ready - readyAtLastCreation) / (drainMs / 1000)) : null,
    pickup_ms: await queuePickup(pool, window),
    cpu,
  };
  log(
    `${label}: ${report.progress}${finished ? `, all done ${report.all_done_after_s} s after the last creation` : ''}`,
  );
  return report;
}

function phaseCpu(
  before: { machine: number | null; bench: number | null },
  after: { machine: number | null; bench: number | null },
  invoices: number,
): PhaseCpu | null {
  if (before.machine === null || after.machine === null || before.bench === null || after.bench === null) return null;
  if (invoices === 0) return null;
  const machine = (after.machine - before.machine) / invoices;
  const bench = (after.bench - before.bench) / invoices;
  const cores = availableParallelism();
  return {
    cores,
    machine_ms_per_invoice: round2(machine),
    bench_ms_per_invoice: round2(bench),
    service_ms_per_invoice: round2(machine - bench),
    sustainable_invoices_per_s: Math.round((cores * 1000) / Math.max(machine, 0.001)),
  };
}

/** The phase's invoices, found through the tenants' list index: polled, it must not cost the database a scan. */
async function countPhase(options: PhaseOptions, prefix: string, window: QueueWindow): Promise<Counts> {
  const { rows } = await options.pool.query<{ total: number; ready: number; failed: number }>(
    `select count(*)::int as total,
            count(*) filter (where documents_status = 'ready')::int as ready,
            count(*) filter (where documents_status = 'failed')::int as failed
       from invoices
      where tenant_id = any($2) and environment = 'sandbox' and created_at >= $3 and invoice_number like $1`,
    [`${prefix}-%`, window.tenantIds, window.since],
  );
  let webhooks = 0;
  let lastWebhookAt: number | null = null;
  for (const arrival of options.receiver.created.values()) {
    if (!arrival.invoiceNumber.startsWith(`${prefix}-`)) continue;
    webhooks++;
    if (lastWebhookAt === null || arrival.at > lastWebhookAt) lastWebhookAt = arrival.at;
  }
  return { ...rows[0], webhooks, lastWebhookAt };
}

function describe(counts: Counts, seconds: number): string {
  const failed = counts.failed > 0 ? ` (${counts.failed} failed)` : '';
  return (
    `documents_ready: ${counts.ready} of ${counts.total}${failed}, ` +
    `webhooks_delivered: ${counts.webhooks} of ${counts.total} after ${Math.round(seconds)} s`
  );
}

const round2 = (value: number): number => Math.round(value * 100) / 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
