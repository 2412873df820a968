import type { Knex } from 'knex';
import type { InvoiceOwner } from '../invoicing/index.js';
import { AppError } from '../shared/app-error.js';
import type { Page, PageInput } from '../shared/pagination.js';
import { paginate } from '../shared/pagination.js';
import type { QuoteInvoiceRow, QuoteRow, QuoteStatus } from './quote-row.js';

/** A quote with the invoices it became, oldest first. */
export interface StoredQuote {
  quote: QuoteRow;
  invoices: QuoteInvoiceRow[];
}

/**
 * The next `DEV-YYYY-NNNN` of a sub-tenant for the year of issue (four digits at least). The
 * counter row stays locked until the transaction ends: concurrent creations take turns, and a
 * rolled-back creation gives its number back, so the series has no gap.
 */
export async function nextQuoteNumber(tx: Knex, owner: InvoiceOwner, issueDate: string): Promise<string> {
  const year = Number(issueDate.slice(0, 4));
  const {
    rows: [row],
  } = await tx.raw<{ rows: { last_number: number }[] }>(
    `insert into quote_sequences (tenant_id, environment, sub_tenant_id, year, last_number)
     values (?, ?, ?, ?, 1)
     on conflict (tenant_id, environment, sub_tenant_id, year)
     do update set last_number = quote_sequences.last_number + 1
     returning last_number`,
    [owner.tenantId, owner.environment, owner.subTenantId, year],
  );
  return `DEV-${year}-${String(row.last_number).padStart(4, '0')}`;
}

export const invoicesOfQuote = (tx: Knex, quoteId: string): Promise<QuoteInvoiceRow[]> =>
  tx('quote_invoices')
    .where({ quote_id: quoteId })
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .select('*');

/** A quote of the owner's sub-tenant, optionally locked; 404 for any other id. */
export async function findQuote(
  tx: Knex,
  owner: InvoiceOwner,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<StoredQuote> {
  const query = tx('quotes').where({
    id,
    tenant_id: owner.tenantId,
    environment: owner.environment,
    ...(owner.subTenantId ? { sub_tenant_id: owner.subTenantId } : {}),
  });
  if (options.forUpdate) query.forUpdate();
  const quote = await query.first<QuoteRow | undefined>('*');
  if (!quote) throw new AppError('NOT_FOUND', 'No such quote.');
  return { quote, invoices: await invoicesOfQuote(tx, quote.id) };
}

/** Any quote the transaction may see (the row-level security of its tenant, or the system's). */
export async function findQuoteById(tx: Knex, id: string, options: { forUpdate?: boolean } = {}) {
  const query = tx('quotes').where({ id });
  if (options.forUpdate) query.forUpdate();
  const quote = await query.first<QuoteRow | undefined>('*');
  if (!quote) throw new AppError('NOT_FOUND', 'No such quote.');
  return { quote, invoices: await invoicesOfQuote(tx, quote.id) };
}

export async function updateQuote(tx: Knex, id: string, changes: Partial<QuoteRow>, now: Date): Promise<QuoteRow> {
  const [row] = await tx('quotes')
    .where({ id })
    .update({ ...changes, updated_at: now })
    .returning<QuoteRow[]>('*');
  return row;
}

/** Invoices of many quotes at once (a page), by quote id. */
export async function invoicesOfQuotes(tx: Knex, ids: readonly string[]): Promise<Map<string, QuoteInvoiceRow[]>> {
  const byQuote = new Map<string, QuoteInvoiceRow[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return byQuote;
  const rows: QuoteInvoiceRow[] = await tx('quote_invoices')
    .whereIn('quote_id', ids)
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .select('*');
  for (const row of rows) byQuote.get(row.quote_id)?.push(row);
  return byQuote;
}

/** A page of a sub-tenant's quotes, newest first. */
export async function listQuotePage(
  tx: Knex,
  owner: InvoiceOwner,
  input: PageInput & { status?: QuoteStatus; q?: string },
): Promise<Page<StoredQuote>> {
  const query = tx('quotes')
    .where({ tenant_id: owner.tenantId, environment: owner.environment, sub_tenant_id: owner.subTenantId })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .select('*');
  if (input.status) query.where({ status: input.status });
  if (input.q) {
    const like = `%${input.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query.where((w) => w.whereILike('quote_number', like).orWhereILike('buyer_name', like));
  }
  const page = await paginate<QuoteRow, QuoteRow>(query, input, (row) => row);
  const invoices = await invoicesOfQuotes(
    tx,
    page.data.map((q) => q.id),
  );
  return { ...page, data: page.data.map((quote) => ({ quote, invoices: invoices.get(quote.id) ?? [] })) };
}
