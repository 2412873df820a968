import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { CREATE_PATH, type LoadTenant, tenLineBody } from './invoice-load.js';
import { databaseNow, type QueuePickup, queuePickup } from './job-pickup.js';
import { log } from './log.js';
import type { WebhookReceiver } from './webhook-receiver.js';

export interface IdleReport {
  /** Invoices created one at a time, each after the previous one was done (or timed out). */
  invoices: number;
  /** Of those, the ones whose documents and webhook both came within the per-invoice timeout. */
  finished: number;
  pickup_ms: Record<string, QueuePickup>;
  /** After each creation's answer: until its documents were ready, and until its webhook arrived. */
  documents_ready_ms: number[];
  webhook_delivered_ms: number[];
}

/**
 * Pickup latency on idle workers: single invoices spaced out, so that each job finds the workers
 * waiting. The gaps vary (1 to 2 s) so that they do not line up with a polling interval.
 */
export async function measureIdlePickup(options: {
  baseUrl: string;
  pool: pg.Pool;
  receiver: WebhookReceiver;
  tenant: LoadTenant;
  count: number;
  perInvoiceTimeoutMs: number;
  deadline: number;
}): Promise<IdleReport> {
  const { pool, receiver, tenant } = options;
  const window = { tenantIds: [tenant.tenantId], since: await databaseNow(pool) };
  const documents: number[] = [];
  const webhooks: number[] = [];
  let created = 0;
  let finished = 0;
  for (let i = 0; i < options.count && performance.now() < options.deadline; i++) {
    await sleep(1000 + Math.random() * 1000);
    const id = await createOne(options.baseUrl, tenant, `IDLE-${i}`, options.perInvoiceTimeoutMs);
    const answeredAt = performance.now();
    if (!id) continue;
    created++;
    let documentsAt: number | null = null;
    const stopAt = Math.min(answeredAt + options.perInvoiceTimeoutMs, options.deadline);
    while (performance.now() < stopAt) {
      if (documentsAt === null && (await documentsReady(pool, id))) documentsAt = performance.now();
      if (documentsAt !== null && receiver.created.has(id)) break;
      await sleep(20);
    }
    const arrival = receiver.created.get(id);
    if (documentsAt !== null) documents.push(Math.round(documentsAt - answeredAt));
    if (arrival) webhooks.push(Math.round(arrival.at - answeredAt));
    if (documentsAt !== null && arrival) finished++;
  }
  const report = {
    invoices: created,
    finished,
    pickup_ms: await queuePickup(pool, window),
    documents_ready_ms: documents,
    webhook_delivered_ms: webhooks,
  };
  log(
    `idle: ${finished} of ${created} done; documents after ${documents.join(', ')} ms; webhooks after ${webhooks.join(', ')} ms`,
  );
  return report;
}

/** One creation; its invoice id, or null (logged) when it failed or took longer than `timeoutMs`. */
async function createOne(baseUrl: string, tenant: LoadTenant, number: string, timeoutMs: number) {
  try {
    const res = await fetch(`${baseUrl}${CREATE_PATH}`, {
      method: 'POST',
      headers: { 'X-API-Key': tenant.key, 'Content-Type': 'application/json' },
      body: tenLineBody(number),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = (await res.json()) as { data?: { id?: string } };
    if (res.ok && body.data?.id) return body.data.id;
    log(`idle: creation answered ${res.status}`);
  } catch (err) {
    log(`idle: creation failed: ${err instanceof Error ? err.message : String(err)}`);
  }
  return null;
}

async function documentsReady(pool: pg.Pool, id: string): Promise<boolean> {
  const { rows } = await pool.query<{ documents_status: string }>(
    'select documents_status from invoices where id = $1',
    [id],
  );
  return rows[0]?.documents_status === 'ready';
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
