import type { Knex } from 'knex';
import type { AdminQuoteListInput } from '../../schemas/quotes.js';
import { Decimal } from '../billing/index.js';
import type { Page } from '../shared/pagination.js';
import { paginate } from '../shared/pagination.js';
import { type QuoteAuditRow, quoteAuditIntact } from './quote-audit.js';
import type { QuoteRow } from './quote-row.js';
import { invoicesOfQuotes, type StoredQuote } from './quote-store.js';

/**
 * The admin routes read every tenant's quotes: after `execute` checked the caller's `admin access`
 * permission, the read-only transaction is raised to the system's view of the rows (row-level
 * security lets the system see all), as the public page's token lookup is (docs/decisions/0076).
 */
export async function readAcrossTenants(tx: Knex): Promise<void> {
  await tx.raw("select set_config('app.caller_kind', 'system', true)");
}

const PERIOD_START: Record<string, string> = {
  today: "date_trunc('day', now())",
  week: "date_trunc('week', now())",
  month: "date_trunc('month', now())",
  quarter: "date_trunc('quarter', now())",
  year: "date_trunc('year', now())",
};

export type AdminStoredQuote = StoredQuote & { tenantName: string };

export async function listAdminQuotes(tx: Knex, input: AdminQuoteListInput): Promise<Page<AdminStoredQuote>> {
  const query = tx('quotes as q')
    .join('tenants as t', 't.id', 'q.tenant_id')
    .select('q.*', 't.name as tenant_name')
    .orderBy([
      { column: 'q.created_at', order: 'desc' },
      { column: 'q.id', order: 'desc' },
    ]);
  if (input.status) query.where('q.status', input.status);
  if (input.tenant_id) query.where('q.tenant_id', input.tenant_id);
  if (input.sub_tenant_id) query.where('q.sub_tenant_id', input.sub_tenant_id);
  if (input.period) query.whereRaw(`q.created_at >= ${PERIOD_START[input.period]}`);
  if (input.date_from) query.where('q.created_at', '>=', `${input.date_from}T00:00:00Z`);
  if (input.date_to) query.whereRaw('q.created_at < (?::date + 1)::timestamptz', [input.date_to]);
  if (input.q) {
    const like = `%${input.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query.where((w) =>
      w
        .whereILike('q.quote_number', like)
        .orWhereILike('q.buyer_name', like)
        .orWhereRaw("q.content->>'seller_name' ilike ?", [like]),
    );
  }
  const page = await paginate<QuoteRow & { tenant_name: string }, QuoteRow & { tenant_name: string }>(
    query,
    input,
    (row) => row,
  );
  const invoices = await invoicesOfQuotes(
    tx,
    page.data.map((q) => q.id),
  );
  return {
    ...page,
    data: page.data.map(({ tenant_name, ...quote }) => ({
      quote: quote as QuoteRow,
      invoices: invoices.get(quote.id) ?? [],
      tenantName: tenant_name,
    })),
  };
}

export async function adminQuoteStats(tx: Knex) {
  const byStatus: { status: string; n: string; ht: string }[] = await tx('quotes')
    .select('status')
    .count({ n: '*' })
    .sum({ ht: 'total_ht' })
    .groupBy('status');
  const [{ invoiced }] = await tx('quote_invoices').sum({ invoiced: 'total_ht' });
  return { byStatus, invoicedHt: new Decimal(invoiced ?? 0) };
}

export interface IntegrityIssue {
  quote_id: string;
  tenant_id: string;
  quote_number: string;
  problem: string;
}

/** Every check of the integrity report, over every quote. */
export async function checkQuotes(tx: Knex, now: Date) {
  const today = now.toISOString().slice(0, 10);
  const quotes: (QuoteRow & { sub_tenant_exists: boolean; invoices_found: number })[] = await tx('quotes as q')
    .select('q.*', tx.raw('exists (select 1 from sub_tenants s where s.id = q.sub_tenant_id) as sub_tenant_exists'))
    .orderBy('q.created_at');
  const invoices = await invoicesOfQuotes(
    tx,
    quotes.map((q) => q.id),
  );
  const liveInvoices = new Set<string>(
    await tx('invoices')
      .whereIn(
        'id',
        [...invoices.values()].flat().map((i) => i.invoice_id),
      )
      .whereNull('deleted_at')
      .pluck('id'),
  );
  const audit = new Map<string, QuoteAuditRow[]>();
  for (const row of (await tx('quote_audit_entries')
    .orderBy(['quote_id', 'sequence_number'])
    .select('*')) as QuoteAuditRow[]) {
    audit.set(row.quote_id, [...(audit.get(row.quote_id) ?? []), row]);
  }
  const issue = (q: QuoteRow, problem: string): IntegrityIssue => ({
    quote_id: q.id,
    tenant_id: q.tenant_id,
    quote_number: q.quote_number,
    problem,
  });
  const orphans: IntegrityIssue[] = [];
  const conversions: IntegrityIssue[] = [];
  const stuck: IntegrityIssue[] = [];
  const chains: IntegrityIssue[] = [];
  for (const q of quotes) {
    const own = invoices.get(q.id) ?? [];
    if (!q.sub_tenant_exists) orphans.push(issue(q, 'its sub-tenant no longer exists'));
    if (q.status === 'converted' && own.length === 0)
      orphans.push(issue(q, 'converted, but no invoice was issued from it'));
    const missing = own.filter((i) => !liveInvoices.has(i.invoice_id));
    if (missing.length > 0) orphans.push(issue(q, `${missing.length} of its invoices are deleted or missing`));
    const invoiced = own.reduce((s, i) => s.plus(i.total_ht), new Decimal(0));
    const total = new Decimal(q.total_ht);
    if (invoiced.greaterThan(total)) {
      conversions.push(
        issue(q, `its invoices (${invoiced.toFixed(2)} excluding VAT) exceed the quote (${total.toFixed(2)})`),
      );
    }
    if (own.some((i) => i.kind === 'balance') && !invoiced.equals(total)) {
      conversions.push(
        issue(q, `balanced, but its invoices add up to ${invoiced.toFixed(2)}, not ${total.toFixed(2)}`),
      );
    }
    if (own.length > 0 && q.status !== 'converted') {
      conversions.push(issue(q, `has invoices but its status is ${q.status}`));
    }
    if (['sent', 'viewed'].includes(q.status) && q.validity_date < today) {
      stuck.push(issue(q, `still ${q.status} after its validity date ${q.validity_date}`));
    }
    if (
      ['sent', 'viewed'].includes(q.status) &&
      q.validity_date >= today &&
      (!q.public_link_expires_at || q.public_link_expires_at.getTime() <= now.getTime())
    ) {
      stuck.push(issue(q, `still ${q.status}, but its public link expired: the buyer cannot answer (regenerate it)`));
    }
    if (q.status === 'draft' && q.validity_date < today) {
      stuck.push(issue(q, `a draft never sent, past its validity date ${q.validity_date}`));
    }
    const entries = audit.get(q.id) ?? [];
    if (entries.length === 0) chains.push(issue(q, 'has no audit entry'));
    else if (!quoteAuditIntact(entries)) chains.push(issue(q, 'its audit chain does not check (a link or a hash)'));
  }
  return { quotesChecked: quotes.length, orphans, conversions, stuck, chains };
}

/** One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break. */
export const csvField = (value: unknown): string => {
  const text = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  // A leading =, +, - or @ would run as a formula in a spreadsheet: prefixed with a quote mark.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

export const AUDIT_EXPORT_COLUMNS = [
  'created_at',
  'tenant_id',
  'quote_id',
  'quote_number',
  'sequence_number',
  'action',
  'actor',
  'actor_ip',
  'details',
  'previous_chain_hash',
  'chain_hash',
] as const;

export async function auditExportRows(tx: Knex, from?: string, to?: string) {
  const query = tx('quote_audit_entries as a')
    .join('quotes as q', 'q.id', 'a.quote_id')
    .select('a.*', 'q.quote_number')
    .orderBy([{ column: 'a.created_at' }, { column: 'a.id' }]);
  if (from) query.where('a.created_at', '>=', `${from}T00:00:00Z`);
  if (to) query.whereRaw('a.created_at < (?::date + 1)::timestamptz', [to]);
  return (await query) as (QuoteAuditRow & { quote_number: string })[];
}
