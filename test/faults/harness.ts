import { randomUUID } from 'node:crypto';
import { Decimal } from 'decimal.js';
import type { Knex } from 'knex';
import pg from 'pg';
import { applyBalanceMovement } from '../../domain/billing/balance-store.js';
import { createDatabase } from '../../domain/shared/database.js';
import { migrateDatabase } from '../../runtime/migrate.js';
import { withDatabase } from '../helpers/database-url.js';
import { seedPlatformTenant } from '../helpers/identities.js';
import { invoiceBody } from '../helpers/invoice-bodies.js';
import { type Receiver, type Reply, startReceiver } from '../helpers/webhook-receiver.js';
import { freePort, startThrowawayCluster, type ThrowawayCluster } from './cluster.js';
import { newAppKey, type ServiceProcess, serviceEnv, webProcess, workerProcess } from './service.js';

/** One run of the suite: its own cluster and database, the Procfile's processes, a webhook receiver. */
export interface Harness {
  cluster: ThrowawayCluster;
  databaseUrl: string;
  /** The owner's connection (outside row-level security): the suite's own reads and seeds. */
  db: Knex;
  baseUrl: string;
  web: ServiceProcess;
  worker: ServiceProcess;
  receiver: Receiver;
  /** What the receiver answers; a scenario swaps it to inject faults. */
  reply: { current: (request: Receiver['requests'][number], index: number) => Reply };
  /** The status the receiver answered a request with (0: it never answered). */
  answeredWith(request: Receiver['requests'][number]): number;
  /** Extra environment for processes started from now on (a fake provider's URL). */
  env: Record<string, string>;
  /** The processes' APP_KEY (`base64:…`): what the suite seals provider secrets with. */
  appKey: string;
  close(): Promise<void>;
}

export interface FaultTenant {
  tenantId: string;
  liveKey: string;
  /** The receiver path of its production webhook (`/t/<n>`). */
  hookPath: string;
}

/** `env`: extra environment of the processes from their first start (fake providers' URLs). */
export async function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  const cluster = await startThrowawayCluster();
  const admin = new pg.Client({ connectionString: cluster.adminUrl });
  await admin.connect();
  await admin.query('create database einvoice_faults');
  await admin.end();
  const databaseUrl = withDatabase(cluster.adminUrl, 'einvoice_faults');
  await migrateDatabase(databaseUrl);
  const db = createDatabase(databaseUrl, { poolMax: 3, applicationName: 'einvoice-faults' });
  const reply: Harness['reply'] = { current: () => ({ status: 200 }) };
  const answered = new WeakMap<object, number>();
  const receiver = await startReceiver((request, index) => {
    const answer = reply.current(request, index);
    answered.set(request, typeof answer === 'string' ? 0 : answer.status);
    return answer;
  });
  const appKey = newAppKey();
  const port = await freePort();
  const web = webProcess(port, () => serviceEnv(databaseUrl, appKey, env));
  const worker = workerProcess(() => serviceEnv(databaseUrl, appKey, env));
  await web.start();
  await worker.start();
  return {
    cluster,
    databaseUrl,
    db,
    baseUrl: `http://127.0.0.1:${port}`,
    web,
    worker,
    receiver,
    reply,
    answeredWith: (request) => answered.get(request) ?? 0,
    env,
    appKey,
    async close() {
      await Promise.allSettled([web.stop(), worker.stop()]);
      await db.destroy().catch(() => {});
      await receiver.close();
      await cluster.stop();
    },
  };
}

let tenantCount = 0;

/** A verified platform tenant with a 100 EUR balance (a recorded credit) and a production webhook on the receiver. */
export async function faultTenant(h: Harness): Promise<FaultTenant> {
  const seeded = await seedPlatformTenant(h.db, { kyb: 'verified' });
  await h.db.transaction((tx) =>
    applyBalanceMovement(tx, seeded.tenantId, {
      type: 'balance_credit',
      amount: new Decimal('100'),
      reason: 'fault suite',
      now: new Date(),
    }),
  );
  const hookPath = `/t/${++tenantCount}`;
  const res = await request(
    h,
    'PUT',
    '/api/v1/tenant/me',
    seeded.keys.sk_live,
    { webhook_url: `${h.receiver.url}${hookPath}` },
    'X-Tenant-Key',
  );
  if (res.status !== 200) throw new Error(`PUT /api/v1/tenant/me answered ${res.status}: ${JSON.stringify(res.body)}`);
  return { tenantId: seeded.tenantId, liveKey: seeded.keys.sk_live, hookPath };
}

export interface Answer {
  status: number;
  body: Record<string, unknown> | null;
}

/** One request; a connection refused or cut is `status: 0` (no answer: not acknowledged). */
export async function request(
  h: Pick<Harness, 'baseUrl'>,
  method: string,
  path: string,
  key: string,
  body?: unknown,
  header: 'X-API-Key' | 'X-Tenant-Key' = 'X-API-Key',
  extra: Record<string, string> = {},
): Promise<Answer> {
  try {
    const res = await fetch(`${h.baseUrl}${path}`, {
      method,
      headers: { [header]: key, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...extra },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    let parsed: Record<string, unknown> | null = null;
    try {
      parsed = text ? (JSON.parse(text) as Record<string, unknown>) : null;
    } catch {
      parsed = null;
    }
    return { status: res.status, body: parsed };
  } catch {
    return { status: 0, body: null };
  }
}

/** One creation the suite asked for: its number, its Idempotency-Key, and what it was told. */
export interface Creation {
  tenant: FaultTenant;
  number: string;
  idempotencyKey: string;
  body: Record<string, unknown>;
  /** The invoice id of a 2xx answer: acknowledged. */
  id: string | null;
  status: number;
}

/** `count` production creations, all in flight at once (up to `concurrency`), spread over `tenants`. */
export async function createInvoices(
  h: Harness,
  tenants: FaultTenant[],
  count: number,
  prefix: string,
  concurrency = count,
): Promise<Creation[]> {
  const creations: Creation[] = Array.from({ length: count }, (_, i) => ({
    tenant: tenants[i % tenants.length],
    number: `${prefix}-${i}`,
    idempotencyKey: randomUUID(),
    body: invoiceBody({ invoice_number: `${prefix}-${i}` }),
    id: null,
    status: -1,
  }));
  await inParallel(creations, concurrency, (c) => send(h, c));
  return creations;
}

async function send(h: Harness, c: Creation): Promise<void> {
  const res = await request(h, 'POST', '/api/v1/invoices', c.tenant.liveKey, c.body, 'X-API-Key', {
    'Idempotency-Key': c.idempotencyKey,
  });
  c.status = res.status;
  if (res.status >= 200 && res.status < 300) c.id = String((res.body?.data as { id?: string } | undefined)?.id ?? '');
}

/**
 * What a careful client does with creations it got no answer for: sends the same request with the
 * same Idempotency-Key until it is answered (a replay, or the creation at last), within `timeoutMs`.
 */
export async function retryUnacknowledged(h: Harness, creations: Creation[], timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pending = creations.filter((c) => c.id === null && (c.status === 0 || c.status >= 500 || c.status === 409));
    if (pending.length === 0 || Date.now() > deadline) return;
    await inParallel(pending, 20, (c) => send(h, c));
    if (pending.some((c) => c.id === null)) await sleep(1000);
  }
}

export async function inParallel<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const loops = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) await work(items[next++]);
  });
  await Promise.all(loops);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it returns something truthy; throws with `what` after `timeoutMs`. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
    } catch {
      // the database may be restarting: asked again
    }
    if (Date.now() > deadline) throw new Error(`not reached in ${Math.round(timeoutMs / 1000)} s: ${what}`);
    await sleep(250);
  }
}
