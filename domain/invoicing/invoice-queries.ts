import type { Knex } from 'knex';
import type { InvoiceListInput } from '../../schemas/invoices.js';
import { AppError } from '../shared/app-error.js';
import type { Caller, Environment } from '../shared/caller.js';
import { type Page, paginate } from '../shared/pagination.js';
import { readerOf } from './invoice-owner.js';
import type { InvoiceRow, StoredInvoice } from './invoice-row.js';
import { findInvoiceRow, linesOf, linesOfInvoice } from './invoice-store.js';
import { type InvoiceView, toInvoiceView } from './invoice-view.js';

/**
 * Which invoices a caller may read: its tenant; its key's environment (a dashboard token reads
 * both); the sub-tenant its key is bound to; the company a user's key is bound to.
 */
export interface InvoiceReader {
  tenantId: string;
  environment: Environment | null;
  subTenantId: string | null;
  companyId: string | null;
}

export const invoiceReaderOf = (caller: Caller): InvoiceReader => ({
  ...readerOf(caller),
  companyId: caller.companyId ?? null,
});

/** One invoice the reader may see, with its lines; 404 for anything else, as for an unknown id. */
export async function findReadableInvoice(
  tx: Knex,
  reader: InvoiceReader,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<StoredInvoice> {
  const invoice = await findReadableInvoiceRow(tx, reader, id, options);
  return { invoice, lines: await linesOfInvoice(tx, id) };
}

/** The same without its lines, for what reads or changes the invoice's own columns only. */
export async function findReadableInvoiceRow(
  tx: Knex,
  reader: InvoiceReader,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<InvoiceRow> {
  const invoice = await findInvoiceRow(tx, reader, id, options);
  if (reader.companyId && invoice.company_id !== reader.companyId) {
    throw new AppError('NOT_FOUND', 'No such invoice.');
  }
  return invoice;
}

/** Statuses a `status` filter finds: `validated` is the user flow's name for the tenant flow's `completed`. */
const STATUS_FILTER: Record<string, readonly string[]> = { validated: ['validated', 'completed'] };

/**
 * A page of the reader's invoices, newest first, with their lines (read in one query for the
 * page). Deleted drafts are left out unless `status=deleted` asks for them.
 */
export async function listInvoicePage(
  tx: Knex,
  reader: InvoiceReader,
  filters: InvoiceListInput,
): Promise<Page<InvoiceView>> {
  checkFilters(reader, filters);
  const query = tx('invoices').where('invoices.tenant_id', reader.tenantId);
  const environment = reader.environment ?? filters.environment;
  if (environment) query.andWhere('invoices.environment', environment);
  for (const subTenantId of [reader.subTenantId, filters.subTenantId]) {
    if (subTenantId) query.andWhere('invoices.sub_tenant_id', subTenantId);
  }
  for (const companyId of [reader.companyId, filters.company_id]) {
    if (companyId) query.andWhere('invoices.company_id', companyId);
  }
  if (filters.status) query.whereIn('invoices.status', STATUS_FILTER[filters.status] ?? [filters.status]);
  else query.whereNot('invoices.status', 'deleted');
  if (filters.direction) query.andWhere('invoices.direction', filters.direction);
  if (filters.from) query.andWhere('invoices.issue_date', '>=', filters.from);
  if (filters.to) query.andWhere('invoices.issue_date', '<=', filters.to);
  query.orderBy([
    { column: 'invoices.created_at', order: 'desc' },
    { column: 'invoices.id', order: 'desc' },
  ]);

  const page = await paginate<InvoiceRow, InvoiceRow>(
    query.select('invoices.*'),
    { page: filters.page ?? 1, per_page: filters.per_page ?? 25 },
    (row) => row,
  );
  const lines = await linesOf(
    tx,
    page.data.map((row) => row.id),
  );
  return { ...page, data: page.data.map((row) => toInvoiceView(row, lines.get(row.id) ?? [])) };
}

function checkFilters(reader: InvoiceReader, filters: InvoiceListInput): void {
  if (reader.environment && filters.environment && filters.environment !== reader.environment) {
    const prefix = reader.environment === 'sandbox' ? 'sk_test_' : 'sk_live_';
    throw AppError.validation({
      environment: [
        `must be ${reader.environment}: an ${prefix} key reads ${reader.environment} invoices only (a dashboard token reads both)`,
      ],
    });
  }
  if (filters.from && filters.to && filters.from > filters.to) {
    throw AppError.validation({ to: ['must be on or after from'] });
  }
}
