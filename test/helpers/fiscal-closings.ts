import type { Knex } from 'knex';
import type { Deps } from '../../domain/shared/deps.js';
import { anchorFiscalClosing } from '../../workers/handlers/anchor-fiscal-closing.js';
import { postJson, readJson } from './http.js';
import { seedPlatformTenant } from './identities.js';
import { invoiceBody } from './invoice-bodies.js';
import type { TestApp } from './test-app.js';
import type { TestClock } from './test-clock.js';

/** A one-line invoice of `ht` euros at 20 % VAT, right to the cent. */
export function smallInvoice(ht: number, overrides: Record<string, unknown> = {}) {
  const tax = Math.round(ht * 20) / 100;
  return invoiceBody({
    total_ht: ht,
    total_tax: tax,
    total_ttc: ht + tax,
    lines: [
      {
        description: 'Service',
        quantity: 1,
        unit_price: ht,
        tax_rate: 20,
        total_ht: ht,
        total_tax: tax,
        total_ttc: ht + tax,
      },
    ],
    ...overrides,
  });
}

/** Creates an invoice at the instant `iso` (the test clock), issued that day; fails loudly if refused. */
export async function invoiceAt(
  app: TestApp,
  clock: TestClock,
  key: string,
  iso: string,
  body: Record<string, unknown> = invoiceBody(),
  path = '/api/v1/invoices',
) {
  clock.set(iso);
  const day = iso.slice(0, 10);
  const res = await app.request(path, postJson({ ...body, issue_date: day, due_date: day }, { 'X-API-Key': key }));
  const json = await readJson(res);
  if (res.status !== 201) throw new Error(`invoice creation failed: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

/** POST /v1/tenant/fiscal/closings/daily. */
export async function closeDay(app: TestApp, key: string, body: Record<string, unknown> = {}) {
  const res = await app.request('/api/v1/tenant/fiscal/closings/daily', postJson(body, { 'X-Tenant-Key': key }));
  return { status: res.status, body: await readJson(res) };
}

/** GET a fiscal route with a tenant key. */
export async function getFiscal(app: TestApp, key: string, path: string) {
  const res = await app.request(`/api/v1/tenant/fiscal/${path}`, { headers: { 'X-Tenant-Key': key } });
  return { status: res.status, body: await readJson(res) };
}

/** The payloads of the queued jobs of a queue (pg-boss's table, read with the owner's connection). */
export async function queuedJobs<T>(db: Knex, queue: string, where: Record<string, string> = {}): Promise<T[]> {
  const { rows } = await db.raw<{ rows: { data: T & Record<string, unknown> }[] }>(
    "select data from pgboss.job where name = ? and state in ('created', 'retry') order by created_on",
    [queue],
  );
  return rows.map((r) => r.data).filter((data) => Object.entries(where).every(([k, v]) => data[k] === v));
}

/** Runs the anchor job of every queued anchor of a tenant, as the worker would; returns what each did. */
export async function runAnchorJobs(db: Knex, deps: Deps, tenantId: string) {
  const jobs = await queuedJobs<{ tenantId: string; anchorId: string }>(db, 'anchor-fiscal-closing', { tenantId });
  const outcomes: unknown[] = [];
  for (const job of jobs) outcomes.push(await anchorFiscalClosing(job, deps).catch((err: Error) => err));
  return outcomes;
}

/**
 * A new verified tenant with one invoice on `day` and that day closed, the clock moved to `afterMs`
 * past the day's end (its anchor is then due).
 */
export async function closedDay(app: TestApp, clock: TestClock, day: string, afterMs = 600_000) {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  await invoiceAt(app, clock, tenant.keys.sk_test, `${day}T10:00:00Z`);
  clock.set(new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000 + afterMs).toISOString());
  const closing = (await closeDay(app, tenant.keys.sk_test, { date: day })).body.data;
  return { tenant, closing };
}

/** The bytes of a fiscal file route (an anchor's token, its CA certificate...). */
export async function fiscalBytes(app: TestApp, key: string, route: string): Promise<Buffer> {
  const res = await app.request(`/api/v1/tenant/fiscal/${route}`, { headers: { 'X-Tenant-Key': key } });
  return Buffer.from(await res.arrayBuffer());
}
