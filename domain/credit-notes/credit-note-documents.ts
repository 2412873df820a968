import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { type InvoiceDocument, type RenderedFile, renderFormat } from '../documents/index.js';

/** What `credit_note_documents` holds per credit note (migrations/20261122004300_create_credit_note_documents.ts). */
export type CreditNoteFileKind = 'pdf' | 'facturx' | 'ubl' | 'cii';

export interface CreditNoteDocumentInfo {
  id: string;
  credit_note_id: string;
  kind: CreditNoteFileKind;
  content_type: string;
  filename: string;
  byte_size: number;
  sha256: string;
}

export interface CreditNoteDocumentRow extends CreditNoteDocumentInfo {
  content: Buffer;
}

const INFO_COLUMNS = ['id', 'credit_note_id', 'kind', 'content_type', 'filename', 'byte_size', 'sha256'];

/**
 * Every file of a credit note, whatever its invoice's format: the CII (381, en16931) and the
 * Factur-X PDF/A-3 that embeds it, the UBL 2.1 CreditNote and the readable PDF ("Avoir"). Pure.
 */
export function renderCreditNoteFiles(doc: InvoiceDocument): RenderedFile[] {
  const [facturx, cii] = renderFormat(doc, 'facturx', 'en16931');
  const [ubl, pdf] = renderFormat(doc, 'ubl', 'en16931');
  return [pdf, facturx, ubl, cii];
}

/** Stores one generated file, replacing the kind if it was generated before. */
export async function saveCreditNoteDocument(
  tx: Knex,
  tenantId: string,
  creditNoteId: string,
  file: RenderedFile,
): Promise<void> {
  const row = {
    tenant_id: tenantId,
    credit_note_id: creditNoteId,
    kind: file.kind,
    content_type: file.contentType,
    filename: file.filename,
    byte_size: file.content.length,
    sha256: createHash('sha256').update(file.content).digest('hex'),
    content: file.content,
  };
  await tx('credit_note_documents')
    .insert(row)
    .onConflict(['credit_note_id', 'kind'])
    .merge({ ...row, created_at: tx.fn.now() });
}

export async function listCreditNoteDocuments(tx: Knex, creditNoteId: string): Promise<CreditNoteDocumentInfo[]> {
  return tx('credit_note_documents')
    .where({ credit_note_id: creditNoteId })
    .orderBy('kind')
    .select<CreditNoteDocumentInfo[]>(INFO_COLUMNS);
}

export async function findCreditNoteDocument(
  tx: Knex,
  creditNoteId: string,
  kind: CreditNoteFileKind,
): Promise<CreditNoteDocumentRow | undefined> {
  return tx('credit_note_documents')
    .where({ credit_note_id: creditNoteId, kind })
    .first<CreditNoteDocumentRow | undefined>();
}
