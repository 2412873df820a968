import type { Knex } from 'knex';
import type { DocumentParty } from '../documents/index.js';

/** A row of `billing_invoices` (migrations/20261127020000_create_billing_invoices.ts), files left out. */
export interface BillingInvoiceRow {
  id: string;
  tenant_id: string;
  period: string;
  number: string;
  issue_date: string;
  currency: string;
  invoices_count: number;
  signatures_count: number;
  credit_notes_count: number;
  invoices_amount: string;
  signatures_amount: string;
  credit_notes_amount: string;
  gross_amount: string;
  discount_rate: string;
  discount_amount: string;
  total_ht: string;
  vat_rate: string;
  total_vat: string;
  total_ttc: string;
  debited_amount: string;
  vat_debited: string;
  prepaid_amount: string;
  amount_due: string;
  seller: DocumentParty;
  buyer: DocumentParty;
  documents_status: 'pending' | 'ready' | 'failed';
  documents_error: string | null;
  pdf_sha256: string | null;
  created_at: Date;
  updated_at: Date;
}

export type NewBillingInvoice = Omit<
  BillingInvoiceRow,
  'documents_status' | 'documents_error' | 'pdf_sha256' | 'updated_at'
>;

/** Every column but the files (which only the download reads). */
const COLUMNS = [
  'id',
  'tenant_id',
  'period',
  'number',
  'issue_date',
  'currency',
  'invoices_count',
  'signatures_count',
  'credit_notes_count',
  'invoices_amount',
  'signatures_amount',
  'credit_notes_amount',
  'gross_amount',
  'discount_rate',
  'discount_amount',
  'total_ht',
  'vat_rate',
  'total_vat',
  'total_ttc',
  'debited_amount',
  'vat_debited',
  'prepaid_amount',
  'amount_due',
  'seller',
  'buyer',
  'documents_status',
  'documents_error',
  'pdf_sha256',
  'created_at',
  'updated_at',
];

/**
 * The next number of the operator's own sequence for `year`, gap-free: the increment locks the
 * year's counter row until the calling transaction ends, so a rolled-back invoice gives its number
 * back and two invoices never share one.
 */
export async function nextBillingNumber(tx: Knex, year: number): Promise<string> {
  const { rows } = await tx.raw<{ rows: { last_number: number }[] }>(
    `insert into billing_invoice_sequences (year, last_number) values (?, 1)
     on conflict (year) do update set last_number = billing_invoice_sequences.last_number + 1
     returning last_number`,
    [year],
  );
  return `FAC-OP-${year}-${String(rows[0].last_number).padStart(6, '0')}`;
}

/** Serialises the billing of one (tenant, month) for the rest of the transaction: two runs take turns. */
export async function lockBillingPeriod(tx: Knex, tenantId: string, period: string): Promise<void> {
  await tx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`billing-invoice:${tenantId}:${period}`]);
}

export async function findBillingInvoiceOfPeriod(
  tx: Knex,
  tenantId: string,
  period: string,
): Promise<BillingInvoiceRow | undefined> {
  return tx('billing_invoices').where({ tenant_id: tenantId, period }).first<BillingInvoiceRow>(COLUMNS);
}

export async function findBillingInvoice(
  tx: Knex,
  tenantId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<BillingInvoiceRow | undefined> {
  return tx('billing_invoices')
    .where({ tenant_id: tenantId, id })
    .modify((q) => {
      if (options.forUpdate) q.forUpdate();
    })
    .first<BillingInvoiceRow>(COLUMNS);
}

export async function insertBillingInvoice(tx: Knex, invoice: NewBillingInvoice): Promise<BillingInvoiceRow> {
  const [row] = await tx('billing_invoices')
    .insert({
      ...invoice,
      seller: JSON.stringify(invoice.seller),
      buyer: JSON.stringify(invoice.buyer),
      updated_at: invoice.created_at,
    })
    .returning<BillingInvoiceRow[]>(COLUMNS);
  return row;
}

/** A tenant's billing invoices, newest month first (a query for `paginate`). */
export function billingInvoicesOf(tx: Knex, tenantId: string, filters: { year?: number }): Knex.QueryBuilder {
  return tx('billing_invoices')
    .where({ tenant_id: tenantId })
    .modify((q) => {
      if (filters.year) q.andWhere('period', 'like', `${filters.year}-%`);
    })
    .select(COLUMNS)
    .orderBy([
      { column: 'period', order: 'desc' },
      { column: 'id', order: 'desc' },
    ]);
}

export async function storeBillingInvoiceFiles(
  tx: Knex,
  id: string,
  files: { pdf: Buffer; pdfSha256: string; cii: Buffer },
  now: Date,
): Promise<void> {
  await tx('billing_invoices').where({ id }).update({
    pdf: files.pdf,
    pdf_sha256: files.pdfSha256,
    cii: files.cii,
    documents_status: 'ready',
    documents_error: null,
    updated_at: now,
  });
}

export async function recordBillingInvoiceFailure(tx: Knex, id: string, reason: string, now: Date): Promise<void> {
  await tx('billing_invoices')
    .where({ id })
    .update({ documents_status: 'failed', documents_error: reason.slice(0, 1000), updated_at: now });
}

export async function readBillingInvoicePdf(
  tx: Knex,
  tenantId: string,
  id: string,
): Promise<{ number: string; pdf: Buffer | null; documents_status: string } | undefined> {
  return tx('billing_invoices')
    .where({ tenant_id: tenantId, id })
    .first<{ number: string; pdf: Buffer | null; documents_status: string }>('number', 'pdf', 'documents_status');
}
