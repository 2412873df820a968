import type { Knex } from 'knex';
import { NO_SUB_TENANT } from '../ledger/index.js';
import { AppError } from '../shared/app-error.js';
import type { Environment } from '../shared/caller.js';
import { prepared } from '../shared/prepared-statements.js';
import { tableColumns } from '../shared/table-columns.js';
import type { NumberedInvoice, PreparedLine } from './invoice.js';
import type { InvoiceLineRow, InvoiceRow, StoredInvoice } from './invoice-row.js';

/** Whose invoice: the isolation key, the environment and the sub-tenant (none for the owner's own). */
export interface InvoiceOwner {
  tenantId: string;
  environment: Environment;
  subTenantId: string | null;
}

/** What every invoice is when it is created. */
export const NEW_INVOICE_STATUS = 'draft' as const;

export interface NewInvoice {
  id: string;
  owner: InvoiceOwner;
  companyId: string | null;
  prepared: NumberedInvoice;
  amountCharged: string;
  fiscalEntryId: string;
  createdBy: Record<string, string | null>;
  now: Date;
}

/**
 * Inserts the invoice and its lines in one statement. A reused `external_id` or invoice number
 * becomes a clear 409 naming the existing invoice, without aborting the transaction.
 */
export async function insertInvoice(tx: Knex, n: NewInvoice): Promise<StoredInvoice> {
  const [stored] = await insertInvoices(tx, [n]);
  if (!stored) throw await duplicateOf(tx, n);
  return stored;
}

/**
 * Inserts invoices and all their lines in one statement (a data-modifying CTE inserts the lines of
 * the invoice rows that were inserted). `on conflict do nothing` skips an invoice whose
 * `external_id` or number is taken: the result holds the inserted ones only, in the order given,
 * and the caller decides what a skipped one means. The company is the owner's live company with
 * the seller's SIRET, unless the caller's key is bound to one.
 */
export async function insertInvoices(tx: Knex, invoices: readonly NewInvoice[]): Promise<StoredInvoice[]> {
  if (invoices.length === 0) return [];
  const linesOf = new Map(invoices.map((n) => [n.id, lineRows(n)]));
  // The rows travel as one JSON parameter: one binding whatever the batch size, typed by the table
  // itself. Columns left out (documents_status...) take their defaults.
  const rows = invoices.map(invoiceRow);
  const columns = Object.keys(rows[0]);
  const returning = await tableColumns(tx, 'invoices');
  const insert = tx.raw(
    `insert into invoices (${columns.join(', ')})
     select ${columns.map((column) => (column === 'company_id' ? OWNER_COMPANY : `r.${column}`)).join(', ')}
     from jsonb_populate_recordset(null::invoices, ?::jsonb) as r
     on conflict do nothing
     returning ${returning}`,
    [JSON.stringify(rows)],
  );
  const insertLines = tx.raw(
    `insert into invoice_lines (tenant_id, invoice_id, line_number, description, quantity, unit_price, tax_rate,
       vat_category, vat_exemption_reason, vat_exemption_reason_code, unit_code, total_ht, total_tax, total_ttc)
     select inv.tenant_id, inv.id, l.line_number, l.description, l.quantity, l.unit_price, l.tax_rate,
       l.vat_category, l.vat_exemption_reason, l.vat_exemption_reason_code, l.unit_code, l.total_ht, l.total_tax, l.total_ttc
     from jsonb_to_recordset(?::jsonb) as l(invoice_id uuid, line_number int, description text, quantity numeric,
       unit_price numeric, tax_rate numeric, vat_category text, vat_exemption_reason text,
       vat_exemption_reason_code text, unit_code text, total_ht numeric, total_tax numeric, total_ttc numeric)
     join inv on inv.id = l.invoice_id`,
    [JSON.stringify([...linesOf.values()].flat())],
  );
  // one statement per connection, planned once (a creation's costliest plan otherwise)
  const inserted = await prepared(
    tx.with('inv', insert).with('lines', insertLines).select<InvoiceRow[]>(tx.raw(returning)).from('inv'),
    'insert_invoices',
  );
  const byId = new Map(inserted.map((row) => [row.id, row]));
  return invoices.flatMap((n) => {
    const invoice = byId.get(n.id);
    return invoice ? [{ invoice, lines: linesOf.get(n.id) ?? [] }] : [];
  });
}

function lineRows(n: NewInvoice) {
  return n.prepared.lines.map((l) => ({ invoice_id: n.id, ...lineColumns(l) }));
}

/** The stored columns of a checked line (invoice and credit-note lines share them). */
export function lineColumns(l: PreparedLine) {
  return {
    line_number: l.lineNumber,
    description: l.description,
    quantity: l.quantity.toFixed(),
    unit_price: l.unitPrice.toFixed(),
    tax_rate: l.taxRate.toFixed(2),
    vat_category: l.vatCategory,
    vat_exemption_reason: l.exemptionReason,
    vat_exemption_reason_code: l.exemptionCode,
    unit_code: l.unitCode,
    total_ht: l.totalHt.toFixed(2),
    total_tax: l.totalTax.toFixed(2),
    total_ttc: l.totalTtc.toFixed(2),
  };
}

/**
 * The company of an invoice: the one the caller's key is bound to, else the owner's live company
 * with the seller's SIRET (the oldest, if several), else none.
 */
const OWNER_COMPANY = `coalesce(r.company_id, (
  select c.id from companies c
  where c.tenant_id = r.tenant_id and c.siret = r.seller_siret and c.deleted_at is null
  order by c.created_at limit 1))`;

function invoiceRow(n: NewInvoice) {
  const p = n.prepared;
  return {
    id: n.id,
    tenant_id: n.owner.tenantId,
    sub_tenant_id: n.owner.subTenantId,
    environment: n.owner.environment,
    company_id: n.companyId,
    external_id: p.externalId,
    invoice_number: p.invoiceNumber,
    status: NEW_INVOICE_STATUS,
    direction: p.direction,
    output_format: p.outputFormat,
    profile: p.profile,
    issue_date: p.issueDate,
    due_date: p.dueDate,
    currency: p.currency,
    total_ht: p.totalHt.toFixed(2),
    total_tax: p.totalTax.toFixed(2),
    total_ttc: p.totalTtc.toFixed(2),
    seller_siret: p.sellerSiret,
    seller_name: p.sellerName,
    seller_vat_number: p.sellerVatNumber,
    seller_country: p.sellerCountry,
    seller_address: p.sellerAddress,
    buyer_siret: p.buyerSiret,
    buyer_name: p.buyerName,
    buyer_country: p.buyerCountry,
    buyer_vat_number: p.buyerVatNumber,
    buyer_legal_id: p.buyerLegalId,
    buyer_address: p.buyerAddress,
    buyer_is_individual: p.buyerIsIndividual,
    archive_enabled: p.archiveEnabled,
    metadata: p.metadata,
    type_code: p.typeCode,
    preceding_invoices: p.precedingInvoices,
    amount_charged: n.amountCharged,
    fiscal_entry_id: n.fiscalEntryId,
    created_by: n.createdBy,
    created_at: n.now,
    updated_at: n.now,
  };
}

const sameOwner = (tx: Knex, owner: InvoiceOwner) =>
  tx('invoices')
    .where({ tenant_id: owner.tenantId, environment: owner.environment })
    .andWhereRaw('coalesce(sub_tenant_id, ?::uuid) = ?::uuid', [NO_SUB_TENANT, owner.subTenantId ?? NO_SUB_TENANT]);

async function duplicateOf(tx: Knex, n: NewInvoice): Promise<AppError> {
  const p = n.prepared;
  if (p.externalId !== null) {
    const row = await sameOwner(tx, n.owner)
      .andWhere({ external_id: p.externalId })
      .first<{ id: string } | undefined>('id');
    if (row) {
      return new AppError('DUPLICATE_EXTERNAL_ID', `An invoice with external_id "${p.externalId}" already exists.`, {
        body: { existing_id: row.id },
      });
    }
  }
  const row = await sameOwner(tx, n.owner)
    .andWhere({ seller_siret: p.sellerSiret, invoice_number: p.invoiceNumber })
    .first<{ id: string } | undefined>('id');
  return new AppError(
    'DUPLICATE_INVOICE_NUMBER',
    `Seller ${p.sellerSiret} already issued invoice number "${p.invoiceNumber}"; invoice numbers are unique per seller.`,
    { body: row ? { existing_id: row.id } : {} },
  );
}

type InvoiceOwnerScope = { tenantId: string; environment?: Environment | null; subTenantId?: string | null };

/** One invoice of the owner with its lines, or 404. `forUpdate` locks the row for a state change. */
export async function findInvoice(
  tx: Knex,
  owner: InvoiceOwnerScope,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<StoredInvoice> {
  const invoice = await findInvoiceRow(tx, owner, id, options);
  return { invoice, lines: await linesOfInvoice(tx, id) };
}

/** The same without its lines, for what reads or changes the invoice's own columns only. */
export async function findInvoiceRow(
  tx: Knex,
  owner: InvoiceOwnerScope,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<InvoiceRow> {
  const query = tx('invoices').where({ id, tenant_id: owner.tenantId });
  if (owner.environment) query.andWhere({ environment: owner.environment });
  if (owner.subTenantId) query.andWhere({ sub_tenant_id: owner.subTenantId });
  if (options.forUpdate) query.forUpdate();
  const invoice = await query.first<InvoiceRow | undefined>();
  if (!invoice) throw new AppError('NOT_FOUND', 'No such invoice.');
  return invoice;
}

/** One invoice's lines, in order. */
export const linesOfInvoice = (tx: Knex, id: string): Promise<InvoiceLineRow[]> =>
  tx('invoice_lines').where({ invoice_id: id }).orderBy('line_number').select<InvoiceLineRow[]>('*');

/** Lines of many invoices at once (list pages), grouped by invoice. */
export async function linesOf(tx: Knex, invoiceIds: readonly string[]): Promise<Map<string, InvoiceLineRow[]>> {
  const byInvoice = new Map<string, InvoiceLineRow[]>(invoiceIds.map((id) => [id, []]));
  if (invoiceIds.length === 0) return byInvoice;
  // one text whatever the number of invoices, so that it is planned once per connection
  const rows = await prepared(
    tx('invoice_lines')
      .whereRaw('invoice_id = any(?::uuid[])', [[...invoiceIds]])
      .orderBy(['invoice_id', 'line_number'])
      .select<InvoiceLineRow[]>(tx.raw(await tableColumns(tx, 'invoice_lines'))),
    'lines_of',
  );
  for (const row of rows) byInvoice.get(row.invoice_id)?.push(row);
  return byInvoice;
}

/** Which of these numbers the owner (tenant, environment, sub-tenant or none) already gave, to any seller. */
export async function numbersTaken(tx: Knex, owner: InvoiceOwner, numbers: readonly string[]): Promise<Set<string>> {
  if (numbers.length === 0) return new Set();
  const rows = await sameOwner(tx, owner).whereIn('invoice_number', numbers).pluck('invoice_number');
  return new Set(rows as string[]);
}
