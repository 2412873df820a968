import type { KybDocument } from '../../schemas/kyb.js';

/** Spec "KYB document" and "Limits": PDF, JPG or PNG, at most 10 MB. */
export const KYB_DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;

/** Documents a tenant may hold at once (not deleted); enough for a few re-uploads of each type. */
export const KYB_DOCUMENTS_MAX = 20;

/**
 * The types an admin must approve, one document each, before the tenant is verified (ADR 0064):
 * who the company is, who represents it, and its rules. A proof of address is optional (the Kbis
 * names the registered office).
 */
export const KYB_REQUIRED_TYPES = ['kbis', 'id_card', 'articles'] as const;

export type KybDocumentType = KybDocument['type'];
export type KybContentType = KybDocument['content_type'];

/** What `kyb_documents` holds of a document, its bytes aside. */
export interface KybDocumentRow {
  id: string;
  tenant_id: string;
  type: KybDocumentType;
  filename: string;
  content_type: KybContentType;
  byte_size: number;
  sha256: string;
  status: KybDocument['status'];
  review_reason: string | null;
  reviewed_at: Date | null;
  created_at: Date;
}

/** Every column but the sealed bytes. */
export const KYB_DOCUMENT_COLUMNS = [
  'id',
  'tenant_id',
  'type',
  'filename',
  'content_type',
  'byte_size',
  'sha256',
  'status',
  'review_reason',
  'reviewed_at',
  'created_at',
] as const;

export const toKybDocumentView = (row: KybDocumentRow): KybDocument => ({
  id: row.id,
  type: row.type,
  filename: row.filename,
  content_type: row.content_type,
  size: row.byte_size,
  sha256: row.sha256,
  status: row.status,
  review_reason: row.review_reason,
  reviewed_at: row.reviewed_at ? row.reviewed_at.toISOString() : null,
  created_at: row.created_at.toISOString(),
});
