import type { Knex } from 'knex';
import type { CreditNoteListInput } from '../../schemas/credit-notes.js';
import { type InvoiceOwner, type InvoiceReader, type InvoiceRow, lineColumns } from '../invoicing/index.js';
import { NO_SUB_TENANT } from '../ledger/index.js';
import { AppError } from '../shared/app-error.js';
import { type Page, paginate } from '../shared/pagination.js';
import type { PreparedCreditNote } from './credit-note.js';
import type { CreditNoteLineRow, CreditNoteRow, StoredCreditNote } from './credit-note-row.js';

export interface NewCreditNote {
  id: string;
  number: string;
  invoice: InvoiceRow;
  prepared: PreparedCreditNote;
  amountCharged: string;
  fiscalEntryId: string;
  createdBy: Record<string, string | null>;
  now: Date;
}

/** The owner of a credit note: its invoice's tenant, environment and sub-tenant. */
export const ownerOfInvoice = (invoice: InvoiceRow): InvoiceOwner => ({
  tenantId: invoice.tenant_id,
  environment: invoice.environment,
  subTenantId: invoice.sub_tenant_id,
});

const sameOwner = (tx: Knex, owner: InvoiceOwner) =>
  tx('credit_notes')
    .where({ tenant_id: owner.tenantId, environment: owner.environment })
    .andWhereRaw('coalesce(sub_tenant_id, ?::uuid) = ?::uuid', [NO_SUB_TENANT, owner.subTenantId ?? NO_SUB_TENANT]);

/** The credit note of this owner and seller with this number, if any (numbers are unique per seller). */
export async function findNumberTaken(
  tx: Knex,
  owner: InvoiceOwner,
  sellerSiret: string,
  number: string,
): Promise<string | undefined> {
  const row = await sameOwner(tx, owner)
    .andWhere({ seller_siret: sellerSiret, credit_note_number: number })
    .first<{ id: string } | undefined>('id');
  return row?.id;
}

/**
 * Inserts the credit note, then its lines. A number taken meanwhile (the unique index) is a 409
 * naming the existing credit note; the caller's transaction is then rolled back.
 */
export async function insertCreditNote(tx: Knex, n: NewCreditNote): Promise<StoredCreditNote> {
  const p = n.prepared;
  const inv = n.invoice;
  const [row] = await tx('credit_notes')
    .insert({
      id: n.id,
      tenant_id: inv.tenant_id,
      sub_tenant_id: inv.sub_tenant_id,
      environment: inv.environment,
      company_id: inv.company_id,
      invoice_id: inv.id,
      credit_note_number: n.number,
      type: p.type,
      reason: p.reason,
      issue_date: p.issueDate,
      currency: inv.currency,
      total_ht: p.totalHt.toFixed(2),
      total_tax: p.totalTax.toFixed(2),
      total_ttc: p.totalTtc.toFixed(2),
      seller_siret: inv.seller_siret,
      buyer_is_individual: inv.buyer_is_individual,
      amount_charged: n.amountCharged,
      fiscal_entry_id: n.fiscalEntryId,
      created_by: JSON.stringify(n.createdBy),
      created_at: n.now,
      updated_at: n.now,
    })
    .onConflict()
    .ignore()
    .returning<CreditNoteRow[]>('*');
  if (!row) {
    const existing = await findNumberTaken(tx, ownerOfInvoice(inv), inv.seller_siret, n.number);
    throw duplicateNumber(inv.seller_siret, n.number, existing);
  }
  const lines = await tx('credit_note_lines')
    .insert(
      p.lines.map((l) => ({
        tenant_id: inv.tenant_id,
        credit_note_id: n.id,
        invoice_line_number: l.invoiceLineNumber,
        ...lineColumns(l),
      })),
    )
    .returning<CreditNoteLineRow[]>('*');
  return {
    creditNote: row,
    lines: lines.sort((a, b) => a.line_number - b.line_number),
    invoiceNumber: inv.invoice_number,
  };
}

export const duplicateNumber = (sellerSiret: string, number: string, existingId: string | undefined) =>
  new AppError(
    'DUPLICATE_CREDIT_NOTE_NUMBER',
    `Seller ${sellerSiret} already issued credit note number "${number}"; credit note numbers are unique per seller. Leave credit_note_number out to get the next AV-YYYY-NNNN.`,
    { body: existingId ? { existing_id: existingId } : {} },
  );

/**
 * One credit note the reader may see, with its lines; deleted drafts and anything outside the
 * reader's tenant, environment, sub-tenant or company answer 404, as an unknown id does.
 * `forUpdate` locks the row for a state change.
 */
export async function findReadableCreditNote(
  tx: Knex,
  reader: InvoiceReader,
  id: string,
  options: { forUpdate?: boolean; includeDeleted?: boolean } = {},
): Promise<StoredCreditNote> {
  return withLines(tx, await findReadableCreditNoteRow(tx, reader, id, options));
}

/** The same without its lines, for what reads or changes the credit note's own columns only. */
export async function findReadableCreditNoteRow(
  tx: Knex,
  reader: InvoiceReader,
  id: string,
  options: { forUpdate?: boolean; includeDeleted?: boolean } = {},
): Promise<CreditNoteRow> {
  const query = tx('credit_notes').where({ id, tenant_id: reader.tenantId });
  if (reader.environment) query.andWhere({ environment: reader.environment });
  if (reader.subTenantId) query.andWhere({ sub_tenant_id: reader.subTenantId });
  if (reader.companyId) query.andWhere({ company_id: reader.companyId });
  if (!options.includeDeleted) query.whereNull('deleted_at');
  if (options.forUpdate) query.forUpdate();
  const creditNote = await query.first<CreditNoteRow | undefined>();
  if (!creditNote) throw new AppError('NOT_FOUND', 'No such credit note.');
  return creditNote;
}

/** A credit note row with its lines and its invoice's number. */
export async function withLines(tx: Knex, creditNote: CreditNoteRow): Promise<StoredCreditNote> {
  const [lines, invoice] = await Promise.all([
    tx('credit_note_lines')
      .where({ credit_note_id: creditNote.id })
      .orderBy('line_number')
      .select<CreditNoteLineRow[]>('*'),
    tx('invoices').where({ id: creditNote.invoice_id }).first<{ invoice_number: string }>('invoice_number'),
  ]);
  return { creditNote, lines, invoiceNumber: invoice.invoice_number };
}

/** A page of the reader's credit notes, newest first, with their lines (one query for the page's lines). */
export async function listCreditNotePage(
  tx: Knex,
  reader: InvoiceReader,
  filters: CreditNoteListInput,
): Promise<Page<StoredCreditNote>> {
  const query = tx('credit_notes as c')
    .join('invoices as i', 'i.id', 'c.invoice_id')
    .where('c.tenant_id', reader.tenantId)
    .whereNull('c.deleted_at');
  if (reader.environment) query.andWhere('c.environment', reader.environment);
  for (const subTenantId of [reader.subTenantId, filters.subTenantId]) {
    if (subTenantId) query.andWhere('c.sub_tenant_id', subTenantId);
  }
  if (reader.companyId) query.andWhere('c.company_id', reader.companyId);
  if (filters.status) query.andWhere('c.status', filters.status);
  if (filters.type) query.andWhere('c.type', filters.type);
  if (filters.invoice_id) query.andWhere('c.invoice_id', filters.invoice_id);
  query.orderBy([
    { column: 'c.created_at', order: 'desc' },
    { column: 'c.id', order: 'desc' },
  ]);
  const page = await paginate<CreditNoteRow & { invoice_number: string }, CreditNoteRow & { invoice_number: string }>(
    query.select('c.*', 'i.invoice_number'),
    { page: filters.page ?? 1, per_page: filters.per_page ?? 15 },
    (row) => row,
  );
  const ids = page.data.map((row) => row.id);
  const lines = ids.length
    ? await tx('credit_note_lines')
        .whereIn('credit_note_id', ids)
        .orderBy(['credit_note_id', 'line_number'])
        .select<CreditNoteLineRow[]>('*')
    : [];
  return {
    ...page,
    data: page.data.map(({ invoice_number, ...creditNote }) => ({
      creditNote: creditNote as CreditNoteRow,
      lines: lines.filter((l) => l.credit_note_id === creditNote.id),
      invoiceNumber: invoice_number,
    })),
  };
}
