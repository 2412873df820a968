import type { Knex } from 'knex';
import { AppError } from '../shared/app-error.js';
import type { Environment } from '../shared/caller.js';
import { type Page, paginate } from '../shared/pagination.js';
import type { IncomingStatus } from './incoming-codes.js';
import { type IncomingEventRow, type IncomingInvoiceRow, ROW_COLUMNS, type StoredLine } from './incoming-row.js';
import type { ParsedInvoice } from './parsed-invoice.js';
import { cleanText, sanitizeParsed } from './sanitize-parsed.js';

/** Whose incoming invoices: a tenant, its key's environment (null: both), a sub-tenant or a company when bound. */
export interface IncomingReader {
  tenantId: string;
  environment: Environment | null;
  subTenantId: string | null;
  companyId?: string | null;
}

/** A file to store as an incoming invoice, with what it says (null when unreadable). */
export interface IncomingToStore {
  tenantId: string;
  environment: Environment;
  subTenantId: string | null;
  source: 'provider' | 'manual';
  providerAccountId: string | null;
  pdpId: string | null;
  file: { filename: string; contentType: string; content: Buffer; sha256: string };
  parsed: ParsedInvoice | null;
  parseError: string | null;
  receivedAt: Date;
}

const NO_SUB_TENANT = '00000000-0000-0000-0000-000000000000';

function parsedColumns(unchecked: ParsedInvoice | null) {
  if (!unchecked) return {};
  // Already sanitised by the parser pool; checked again here, where the columns are (idempotent).
  const parsed = sanitizeParsed(unchecked);
  const lines: StoredLine[] = parsed.lines.map((line) => ({
    line_number: line.lineNumber,
    description: line.description,
    quantity: line.quantity,
    unit_code: line.unitCode,
    unit_price: line.unitPrice,
    total_ht: line.netAmount,
    vat_category: line.vatCategory,
    vat_rate: line.vatRate,
  }));
  return {
    format: parsed.format,
    type_code: parsed.typeCode,
    invoice_number: parsed.number,
    issue_date: parsed.issueDate,
    due_date: parsed.dueDate,
    currency: parsed.currency,
    seller_name: parsed.seller.name,
    seller_siret: parsed.seller.siret,
    seller_vat_number: parsed.seller.vatNumber,
    seller_country: parsed.seller.country,
    buyer_name: parsed.buyer.name,
    buyer_siret: parsed.buyer.siret,
    buyer_vat_number: parsed.buyer.vatNumber,
    buyer_country: parsed.buyer.country,
    total_ht: parsed.totals.taxBasisTotal,
    total_tax: parsed.totals.taxTotal,
    total_ttc: parsed.totals.grandTotal,
    amount_due: parsed.totals.duePayable,
    lines: JSON.stringify(lines),
  };
}

/**
 * Stores an incoming invoice unless the same one is already there, recognised by its provider id,
 * its file's hash, or its seller's SIRET and number (the three unique keys of the table). Returns
 * the new row, or the existing one's id with `duplicate: true`. The insert skips on any of the
 * keys, so concurrent arrivals of one invoice store it once.
 */
export async function insertIncoming(
  tx: Knex,
  item: IncomingToStore,
): Promise<{ duplicate: false; row: IncomingInvoiceRow } | { duplicate: true; existingId: string }> {
  const inserted = await tx('incoming_invoices')
    .insert({
      tenant_id: item.tenantId,
      sub_tenant_id: item.subTenantId,
      environment: item.environment,
      source: item.source,
      provider_account_id: item.providerAccountId,
      pdp_id: item.pdpId,
      parse_error: cleanText(item.parseError, 1000),
      filename: item.file.filename,
      content_type: item.file.contentType,
      byte_size: item.file.content.length,
      content_sha256: item.file.sha256,
      content: item.file.content,
      received_at: item.receivedAt,
      ...parsedColumns(item.parsed),
    })
    .onConflict()
    .ignore()
    .returning<IncomingInvoiceRow[]>(ROW_COLUMNS.map((c) => c.replace('incoming_invoices.', '')));
  if (inserted.length > 0) return { duplicate: false, row: inserted[0] };
  const number = item.parsed?.number ?? null;
  const siret = item.parsed?.seller.siret ?? null;
  const existing = await tx('incoming_invoices')
    .where({ tenant_id: item.tenantId, environment: item.environment })
    .andWhereRaw('coalesce(sub_tenant_id, ?::uuid) = coalesce(?::uuid, ?::uuid)', [
      NO_SUB_TENANT,
      item.subTenantId,
      NO_SUB_TENANT,
    ])
    .andWhere((q) => {
      q.where('content_sha256', item.file.sha256);
      if (item.pdpId) q.orWhere('pdp_id', item.pdpId);
      if (number && siret) q.orWhere({ seller_siret: siret, invoice_number: number });
    })
    .first<{ id: string } | undefined>('id');
  if (!existing) throw new Error('incoming invoice insert skipped but no existing row found');
  return { duplicate: true, existingId: existing.id };
}

function readable(tx: Knex, reader: IncomingReader) {
  const query = tx('incoming_invoices').where('incoming_invoices.tenant_id', reader.tenantId);
  if (reader.environment) query.andWhere('incoming_invoices.environment', reader.environment);
  if (reader.subTenantId) query.andWhere('incoming_invoices.sub_tenant_id', reader.subTenantId);
  if (reader.companyId) {
    // A company-bound key sees the invoices addressed to its company: those whose buyer's legal
    // identifier (BT-47) is the company's SIRET, and those that arrived in the inbox of the
    // company's own provider connection (an unreadable file names no buyer: its inbox tells).
    const companyId = reader.companyId;
    query.andWhere((q) =>
      q
        .whereIn(
          'incoming_invoices.buyer_siret',
          tx('companies').where({ id: companyId, tenant_id: reader.tenantId }).select('siret'),
        )
        .orWhereIn(
          'incoming_invoices.provider_account_id',
          tx('provider_connections')
            .where({ company_id: companyId, tenant_id: reader.tenantId })
            .select(tx.raw('id::text')),
        ),
    );
  }
  return query;
}

/** One incoming invoice the reader may see; 404 for any other id, as for an unknown one. */
export async function findIncoming(
  tx: Knex,
  reader: IncomingReader,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<IncomingInvoiceRow> {
  const query = readable(tx, reader)
    .andWhere('incoming_invoices.id', id)
    .first<IncomingInvoiceRow | undefined>(ROW_COLUMNS);
  if (options.forUpdate) query.forUpdate();
  const row = await query;
  if (!row) throw new AppError('NOT_FOUND', `No incoming invoice ${id}. List them with GET /v1/invoices/incoming.`);
  return row;
}

export interface IncomingFilters {
  subTenantId?: string;
  status?: IncomingStatus;
  from?: string;
  to?: string;
  page?: number;
  per_page?: number;
}

/** A page of the reader's incoming invoices, newest first. */
export function listIncoming(
  tx: Knex,
  reader: IncomingReader,
  filters: IncomingFilters,
): Promise<Page<IncomingInvoiceRow>> {
  if (filters.from && filters.to && filters.from > filters.to) {
    throw AppError.validation({ to: ['must be on or after from'] });
  }
  const query = readable(tx, reader);
  if (filters.subTenantId) query.andWhere('incoming_invoices.sub_tenant_id', filters.subTenantId);
  if (filters.status) query.andWhere('incoming_invoices.status', filters.status);
  const day = "coalesce(incoming_invoices.issue_date, (incoming_invoices.received_at at time zone 'UTC')::date)";
  if (filters.from) query.andWhereRaw(`${day} >= ?::date`, [filters.from]);
  if (filters.to) query.andWhereRaw(`${day} <= ?::date`, [filters.to]);
  query.orderBy([
    { column: 'incoming_invoices.created_at', order: 'desc' },
    { column: 'incoming_invoices.id', order: 'desc' },
  ]);
  return paginate<IncomingInvoiceRow, IncomingInvoiceRow>(
    query.select(ROW_COLUMNS),
    { page: filters.page ?? 1, per_page: filters.per_page ?? 25 },
    (row) => row,
  );
}

/** The status histories of some invoices, oldest first, with whether each status was sent. */
export async function eventsOf(
  tx: Knex,
  tenantId: string,
  ids: readonly string[],
): Promise<Map<string, IncomingEventRow[]>> {
  const rows: IncomingEventRow[] = ids.length
    ? await tx('incoming_invoice_events as e')
        .leftJoin('incoming_status_sends as s', 's.event_id', 'e.id')
        .where('e.tenant_id', tenantId)
        .whereIn('e.incoming_invoice_id', ids)
        .orderBy([
          { column: 'e.created_at', order: 'asc' },
          { column: 'e.id', order: 'asc' },
        ])
        .select(
          'e.id',
          'e.incoming_invoice_id',
          'e.status',
          'e.status_code',
          'e.reason_code',
          'e.reason_text',
          'e.created_at',
          's.event_id as send_event_id',
          's.sent_at',
        )
    : [];
  const byInvoice = new Map<string, IncomingEventRow[]>();
  for (const row of rows)
    byInvoice.set(row.incoming_invoice_id, [...(byInvoice.get(row.incoming_invoice_id) ?? []), row]);
  return byInvoice;
}

export interface EventToRecord {
  status: IncomingStatus;
  statusCode: string | null;
  reasonCode?: string | null;
  reasonText?: string | null;
  actor: Record<string, unknown>;
  at: Date;
}

/** Appends a status to an invoice's history; returns the event id. */
export async function appendEvent(
  tx: Knex,
  row: Pick<IncomingInvoiceRow, 'id' | 'tenant_id'>,
  event: EventToRecord,
): Promise<string> {
  const [inserted] = await tx('incoming_invoice_events')
    .insert({
      tenant_id: row.tenant_id,
      incoming_invoice_id: row.id,
      status: event.status,
      status_code: event.statusCode,
      reason_code: event.reasonCode ?? null,
      reason_text: event.reasonText ?? null,
      actor: event.actor,
      created_at: event.at,
    })
    .returning<{ id: string }[]>('id');
  return inserted.id;
}
