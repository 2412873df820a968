import type { Creation, FaultTenant, Harness } from './harness.js';
import { request, until } from './harness.js';

/**
 * What one fault left, in the figures the suite prints: creations acknowledged (2xx), found exactly
 * once and complete, lost (acknowledged, not found), doubled (anything done twice: an invoice, its
 * charge, its ledger entry, its `invoice.created` under two delivery ids, its upload).
 */
export interface Figures {
  fault: string;
  requested: number;
  acknowledged: number;
  found: number;
  lost: number;
  doubled: number;
  /** Creations that got no answer (or a 5xx) at first, before the client's retry with the same Idempotency-Key. */
  unanswered_at_first: number;
  /** Invoices that exist but are not complete (no ledger entry, no charge, no documents, no webhook). */
  half_written: number;
  /** Arrivals at the receiver of a delivery id already received (at-least-once transport; the id deduplicates). */
  redelivered: number;
  uploads?: { submitted: number; uploaded: number; doubled: number };
  /** Requests that ended `failed`, those refunded, and any refunded more than once (docs/decisions/0092). */
  refunds?: { failed: number; refunded: number; doubled: number };
  ledger_valid: boolean;
  balances_match: boolean;
  /** What incomplete invoices lack, when any does (for the report). */
  missing?: string;
  seconds: number;
}

interface InvoiceRow {
  id: string;
  tenant_id: string;
  invoice_number: string;
  documents_status: string;
  fiscal_entry_id: string | null;
  entry_found: boolean;
  charges: number;
}

/** Every invoice of the tenants, with whether its ledger entry exists and how many charges it has. */
async function invoicesOf(h: Harness, tenants: FaultTenant[]): Promise<InvoiceRow[]> {
  const { rows } = await h.db.raw<{ rows: InvoiceRow[] }>(
    `select i.id, i.tenant_id, i.invoice_number, i.documents_status, i.fiscal_entry_id,
            exists (select 1 from fiscal_entries f where f.id = i.fiscal_entry_id and f.entity_id = i.id) as entry_found,
            (select count(*)::int from balance_transactions b
              where b.reference_id = i.id and b.type = 'invoice_created') as charges
       from invoices i where i.tenant_id = any(?) and i.environment = 'production'`,
    [tenants.map((t) => t.tenantId)],
  );
  return rows;
}

/** `invoice.created` delivery ids received per invoice id at each tenant's path, and repeated arrivals. */
function createdDeliveries(h: Harness, paths: Set<string>): { ids: Map<string, Set<string>>; redelivered: number } {
  const ids = new Map<string, Set<string>>();
  const seen = new Set<string>();
  let redelivered = 0;
  for (const r of h.receiver.requests) {
    if (!paths.has(r.path)) continue;
    const delivery = String(r.headers['x-service-delivery'] ?? '');
    const key = `${r.path} ${delivery}`;
    if (seen.has(key)) redelivered++;
    seen.add(key);
    // delivered: answered 2xx (a 500 or 429 is an attempt, retried under the same id)
    const status = h.answeredWith(r);
    if (r.headers['x-service-event'] !== 'invoice.created' || status < 200 || status > 299) continue;
    let invoiceId = '';
    try {
      invoiceId = String((JSON.parse(r.rawBody) as { data?: { id?: string } }).data?.id ?? '');
    } catch {
      continue;
    }
    const perInvoice = ids.get(`${r.path} ${invoiceId}`) ?? new Set<string>();
    perInvoice.add(delivery);
    ids.set(`${r.path} ${invoiceId}`, perInvoice);
  }
  return { ids, redelivered };
}

/**
 * Waits until every invoice of the tenants has its documents and its `invoice.created` at the
 * receiver (and every submitted one its upload), then counts. Throws nothing on a shortfall: the
 * figures say what is missing, and the test asserts on them.
 */
export async function settleAndCount(
  h: Harness,
  fault: string,
  tenants: FaultTenant[],
  creations: Creation[],
  options: { startedAt: number; unansweredAtFirst: number; submitted?: string[]; timeoutMs?: number },
): Promise<Figures> {
  const pathOf = new Map(tenants.map((t) => [t.tenantId, t.hookPath]));
  const complete = async () => {
    const invoices = await invoicesOf(h, tenants);
    const { ids } = createdDeliveries(h, new Set(pathOf.values()));
    const documentsDone = invoices.every((i) => i.documents_status === 'ready' || i.documents_status === 'failed');
    const webhooksDone = invoices.every((i) => (ids.get(`${pathOf.get(i.tenant_id)} ${i.id}`)?.size ?? 0) > 0);
    const uploadsDone = options.submitted ? (await uploads(h, options.submitted)).pending === 0 : true;
    return documentsDone && webhooksDone && uploadsDone;
  };
  await until(
    `${fault}: documents, webhooks and uploads of every invoice`,
    complete,
    options.timeoutMs ?? 150_000,
  ).catch(() => false);
  const invoices = await invoicesOf(h, tenants);
  const { ids, redelivered } = createdDeliveries(h, new Set(pathOf.values()));
  const byNumber = new Map<string, InvoiceRow[]>();
  for (const i of invoices) byNumber.set(i.invoice_number, [...(byNumber.get(i.invoice_number) ?? []), i]);
  const isComplete = (i: InvoiceRow) =>
    i.entry_found &&
    i.charges === 1 &&
    i.documents_status === 'ready' &&
    (ids.get(`${pathOf.get(i.tenant_id)} ${i.id}`)?.size ?? 0) === 1;
  const acknowledged = creations.filter((c) => c.id !== null);
  let found = 0;
  let lost = 0;
  for (const c of acknowledged) {
    const rows = byNumber.get(c.number) ?? [];
    if (rows.length === 1 && rows[0].id === c.id && isComplete(rows[0])) found++;
    else if (rows.length === 0) lost++;
  }
  const doubledInvoices = [...byNumber.values()].filter((rows) => rows.length > 1).length;
  const doubledCharges = invoices.filter((i) => i.charges > 1).length;
  const doubledWebhooks = invoices.filter((i) => (ids.get(`${pathOf.get(i.tenant_id)} ${i.id}`)?.size ?? 0) > 1).length;
  const orphans = await orphanWrites(h, tenants);
  const uploadFigures = options.submitted ? await uploads(h, options.submitted) : undefined;
  return {
    fault,
    requested: creations.length,
    acknowledged: acknowledged.length,
    found,
    lost,
    doubled: doubledInvoices + doubledCharges + doubledWebhooks + (uploadFigures?.doubled ?? 0),
    unanswered_at_first: options.unansweredAtFirst,
    half_written: invoices.filter((i) => !isComplete(i)).length + orphans,
    redelivered,
    ...(uploadFigures
      ? {
          uploads: {
            submitted: options.submitted?.length ?? 0,
            uploaded: uploadFigures.uploaded,
            doubled: uploadFigures.doubled,
          },
        }
      : {}),
    ...missingOf(
      invoices,
      (i) => ids.get(`${pathOf.get(i.tenant_id)} ${i.id}`)?.size ?? 0,
      uploadFigures?.pending ?? 0,
      uploadFigures?.pending ? await transmitJobStates(h, options.submitted ?? []) : '',
    ),
    ledger_valid: await ledgerValid(h, tenants),
    balances_match: await balancesMatch(h, tenants),
    seconds: Math.round((Date.now() - options.startedAt) / 1000),
  };
}

function missingOf(
  invoices: InvoiceRow[],
  deliveries: (i: InvoiceRow) => number,
  pendingUploads: number,
  transmitJobs: string,
) {
  const count = (test: (i: InvoiceRow) => boolean) => invoices.filter(test).length;
  const parts = [
    [count((i) => !i.entry_found), 'without ledger entry'],
    [count((i) => i.charges !== 1), 'without exactly one charge'],
    [count((i) => i.documents_status !== 'ready'), 'without documents'],
    [count((i) => deliveries(i) !== 1), 'without exactly one invoice.created delivery id'],
    [pendingUploads, `submitted, not uploaded${transmitJobs ? ` (transmit-invoice jobs: ${transmitJobs})` : ''}`],
  ].filter(([n]) => Number(n) > 0);
  return parts.length > 0 ? { missing: parts.map(([n, what]) => `${n} ${what}`).join(', ') } : {};
}

/** The transmit-invoice jobs of invoices not uploaded yet, by state and attempt (what held them back). */
async function transmitJobStates(h: Harness, invoiceIds: string[]): Promise<string> {
  const { rows } = await h.db.raw<{ rows: { state: string; retry_count: number; n: number }[] }>(
    `select j.state, j.retry_count, count(*)::int as n
       from pgboss.job j join invoices i on i.id::text = j.data->>'invoiceId'
      where j.name = 'transmit-invoice' and i.id = any(?) and i.pdp_id is null
      group by 1, 2 order by 1, 2`,
    [invoiceIds],
  );
  return rows.map((r) => `${r.n} ${r.state} after ${r.retry_count} retries`).join(', ');
}

/** Charges and ledger entries of an invoice that does not exist: what a half-written creation would leave. */
async function orphanWrites(h: Harness, tenants: FaultTenant[]): Promise<number> {
  const ids = tenants.map((t) => t.tenantId);
  const { rows } = await h.db.raw<{ rows: { n: number }[] }>(
    `select (select count(*)::int from balance_transactions b
              where b.tenant_id = any(:ids) and b.type = 'invoice_created'
                and not exists (select 1 from invoices i where i.id = b.reference_id))
          + (select count(*)::int from fiscal_entries f
              where f.tenant_id = any(:ids) and f.entity_type = 'invoice'
                and not exists (select 1 from invoices i where i.id = f.entity_id)) as n`,
    { ids },
  );
  return rows[0].n;
}

/** Uploads at the simulator per submitted invoice (by its external id): one each, none pending. */
async function uploads(
  h: Harness,
  invoiceIds: string[],
): Promise<{ uploaded: number; doubled: number; pending: number }> {
  const { rows } = await h.db.raw<{ rows: { id: string; pdp_id: string | null; uploads: number }[] }>(
    `select i.id, i.pdp_id,
            (select count(*)::int from simulated_provider_invoices s
              where s.connection_id = i.provider_connection_id and s.external_id = i.id::text) as uploads
       from invoices i where i.id = any(?)`,
    [invoiceIds],
  );
  return {
    uploaded: rows.filter((r) => r.pdp_id !== null && r.uploads === 1).length,
    doubled: rows.filter((r) => r.uploads > 1).length,
    pending: rows.filter((r) => r.pdp_id === null).length,
  };
}

/** The tenant's own integrity check over HTTP (`GET /api/v1/tenant/fiscal/integrity`) for every tenant. */
export async function ledgerValid(h: Harness, tenants: FaultTenant[]): Promise<boolean> {
  for (const t of tenants) {
    const res = await request(h, 'GET', '/api/v1/tenant/fiscal/integrity', t.liveKey, undefined, 'X-Tenant-Key');
    if (res.status !== 200 || res.body?.valid !== true) return false;
  }
  return true;
}

/** Each balance equals the sum of its movements (the initial credit included). */
export async function balancesMatch(h: Harness, tenants: FaultTenant[]): Promise<boolean> {
  const { rows } = await h.db.raw<{ rows: { ok: boolean }[] }>(
    `select b.amount = coalesce((select sum(t.amount) from balance_transactions t where t.tenant_id = b.tenant_id), 0) as ok
       from balances b where b.tenant_id = any(?)`,
    [tenants.map((t) => t.tenantId)],
  );
  return rows.length === tenants.length && rows.every((r) => r.ok);
}

export function printFigures(figures: Figures): void {
  const uploads = figures.uploads
    ? `, uploads ${figures.uploads.uploaded}/${figures.uploads.submitted} (doubled ${figures.uploads.doubled})`
    : '';
  const refunds = figures.refunds
    ? `, failed ${figures.refunds.failed} (refunded ${figures.refunds.refunded}, twice ${figures.refunds.doubled})`
    : '';
  process.stdout.write(
    `[faults] ${figures.fault}: acknowledged ${figures.acknowledged}/${figures.requested}, found ${figures.found}, ` +
      `lost ${figures.lost}, doubled ${figures.doubled}, half-written ${figures.half_written}, ` +
      `unanswered at first ${figures.unanswered_at_first}, redelivered ${figures.redelivered}${uploads}${refunds}, ` +
      `ledger ${figures.ledger_valid ? 'valid' : 'INVALID'}, balances ${figures.balances_match ? 'match' : 'DIFFER'}, ` +
      `${figures.seconds} s${figures.missing ? ` (${figures.missing})` : ''}\n`,
  );
}
