import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { prepared } from '../shared/prepared-statements.js';

/** What `invoice_documents` holds per invoice (migrations/20261122001900_create_invoice_documents.ts). */
export const DOCUMENT_KINDS = ['original', 'pdf', 'facturx', 'ubl', 'cii'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

export interface NewInvoiceDocument {
  tenantId: string;
  invoiceId: string;
  kind: DocumentKind;
  contentType: string;
  filename: string;
  content: Buffer;
  /** SHA-256 of `content`, hex, when the caller has it already (a rendering computes it). */
  sha256?: string;
}

/** A stored file without its bytes: enough to choose one and to name it. */
export interface InvoiceDocumentInfo {
  id: string;
  invoice_id: string;
  kind: DocumentKind;
  content_type: string;
  filename: string;
  byte_size: number;
  sha256: string;
  created_at: Date;
}

/** A stored file with its bytes. */
export interface InvoiceDocumentRow extends InvoiceDocumentInfo {
  content: Buffer;
}

const INFO_COLUMNS = ['id', 'invoice_id', 'kind', 'content_type', 'filename', 'byte_size', 'sha256', 'created_at'];

/**
 * Stores one file of an invoice, one row per (invoice, kind). A generated kind is replaced when the
 * worker generates it again; the caller's `original` is kept as first uploaded, never replaced.
 * Returns the row as stored (the kept original when one was already there).
 */
export async function saveInvoiceDocument(tx: Knex, doc: NewInvoiceDocument): Promise<InvoiceDocumentInfo> {
  const row = rowOf(doc);
  const insert = tx('invoice_documents').insert(row).onConflict(['invoice_id', 'kind']);
  const [saved] =
    doc.kind === 'original'
      ? await insert.ignore().returning<InvoiceDocumentInfo[]>(INFO_COLUMNS)
      : await insert.merge({ ...row, created_at: tx.fn.now() }).returning<InvoiceDocumentInfo[]>(INFO_COLUMNS);
  return saved ?? (await listInvoiceDocuments(tx, doc.invoiceId)).find((d) => d.kind === doc.kind)!;
}

/**
 * Stores generated files of many invoices in one statement, replacing a kind already there (as
 * `saveInvoiceDocument` does for a generated kind). Not for `original`, which is never replaced.
 */
export async function saveGeneratedDocuments(tx: Knex, docs: readonly NewInvoiceDocument[]): Promise<void> {
  if (docs.length === 0) return;
  if (docs.some((d) => d.kind === 'original')) throw new Error('an original file is stored with saveInvoiceDocument');
  // one text per number of files (a batch's invoices × their kinds), each planned once per connection
  await prepared(
    tx('invoice_documents')
      .insert(docs.map(rowOf))
      .onConflict(['invoice_id', 'kind'])
      .merge(['content_type', 'filename', 'byte_size', 'sha256', 'content', 'created_at']),
    'insert_generated_documents',
  );
}

const rowOf = (doc: NewInvoiceDocument) => ({
  tenant_id: doc.tenantId,
  invoice_id: doc.invoiceId,
  kind: doc.kind,
  content_type: doc.contentType,
  filename: doc.filename,
  byte_size: doc.content.length,
  sha256: doc.sha256 ?? createHash('sha256').update(doc.content).digest('hex'),
  content: doc.content,
});

/** One file of an invoice, bytes included, or undefined when the invoice has none of that kind. */
export async function findInvoiceDocument(
  tx: Knex,
  invoiceId: string,
  kind: DocumentKind,
): Promise<InvoiceDocumentRow | undefined> {
  return tx('invoice_documents').where({ invoice_id: invoiceId, kind }).first<InvoiceDocumentRow | undefined>();
}

/** The files an invoice has, without their bytes (to pick one for a download link). */
export async function listInvoiceDocuments(tx: Knex, invoiceId: string): Promise<InvoiceDocumentInfo[]> {
  return tx('invoice_documents')
    .where({ invoice_id: invoiceId })
    .orderBy('kind')
    .select<InvoiceDocumentInfo[]>(INFO_COLUMNS);
}
