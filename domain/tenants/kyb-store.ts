import type { Knex } from 'knex';
import type { KybDocument, KybStatus } from '../../schemas/kyb.js';
import { AppError } from '../shared/app-error.js';
import type { Config } from '../shared/config.js';
import type { FileOutput } from '../shared/file-output.js';
import { openBytes, sealBytes } from '../shared/secret-box.js';
import { KYB_DOCUMENT_COLUMNS, KYB_REQUIRED_TYPES, type KybDocumentRow, type KybDocumentType } from './kyb-document.js';
import type { KybFile } from './kyb-file.js';
import type { TenantKybRow } from './kyb-state.js';

/** The sealing key: KYB files are never stored in clear, so without APP_KEY they are not taken. */
export function kybKey(config: Config): Buffer {
  if (!config.appKey) {
    throw new AppError('SERVICE_UNAVAILABLE', 'KYB documents need APP_KEY to be stored encrypted: it is not set.');
  }
  return config.appKey;
}

/** The document id is authenticated with its bytes: sealed bytes copied to another row do not open. */
const sealContext = (documentId: string) => `kyb-document:${documentId}`;

export async function insertKybDocument(
  tx: Knex,
  key: Buffer,
  document: { id: string; tenantId: string; type: KybDocumentType; file: KybFile; now: Date },
): Promise<KybDocumentRow> {
  const [row] = await tx('kyb_documents')
    .insert({
      id: document.id,
      tenant_id: document.tenantId,
      type: document.type,
      filename: document.file.filename,
      content_type: document.file.contentType,
      byte_size: document.file.content.length,
      sha256: document.file.sha256,
      content_sealed: sealBytes(key, document.file.content, sealContext(document.id)),
      created_at: document.now,
    })
    .returning<KybDocumentRow[]>([...KYB_DOCUMENT_COLUMNS]);
  return row;
}

/** A tenant's documents, oldest first. */
export const listKybDocumentRows = (tx: Knex, tenantIds: readonly string[]): Promise<KybDocumentRow[]> =>
  tx('kyb_documents')
    .whereIn('tenant_id', tenantIds)
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .select<KybDocumentRow[]>([...KYB_DOCUMENT_COLUMNS]);

/**
 * One document, or 404. `tenantId` null: any tenant's (the system, for an admin); under row-level
 * security a tenant sees its own only, and the explicit predicate says so too.
 */
export async function findKybDocument(
  tx: Knex,
  tenantId: string | null,
  documentId: string,
  options: { lock?: boolean } = {},
): Promise<KybDocumentRow> {
  const query = tx('kyb_documents').where({ id: documentId });
  if (tenantId) query.andWhere({ tenant_id: tenantId });
  if (options.lock) query.forUpdate();
  const row = await query.first<KybDocumentRow | undefined>([...KYB_DOCUMENT_COLUMNS]);
  if (!row) throw new AppError('NOT_FOUND', `KYB document ${documentId} not found.`);
  return row;
}

/** A document's bytes, opened, as a download. */
export async function kybDocumentFile(tx: Knex, config: Config, document: KybDocumentRow): Promise<FileOutput> {
  const sealed = await tx('kyb_documents')
    .where({ id: document.id, tenant_id: document.tenant_id })
    .first<{ content_sealed: Buffer } | undefined>('content_sealed');
  if (!sealed) throw new AppError('NOT_FOUND', `KYB document ${document.id} not found.`);
  return {
    content: openBytes(kybKey(config), sealed.content_sealed, sealContext(document.id)),
    contentType: document.content_type,
    filename: document.filename,
  };
}

export async function reviewKybDocumentRow(
  tx: Knex,
  document: KybDocumentRow,
  review: { status: 'approved' | 'rejected'; reason: string | null; reviewerId: string; now: Date },
): Promise<KybDocumentRow> {
  const [row] = await tx('kyb_documents')
    .where({ id: document.id, tenant_id: document.tenant_id })
    .update({
      status: review.status,
      review_reason: review.reason,
      reviewed_at: review.now,
      reviewed_by: review.reviewerId,
    })
    .returning<KybDocumentRow[]>([...KYB_DOCUMENT_COLUMNS]);
  return row;
}

/** Required types with no document pending review or approved: what the tenant still has to send. */
export const missingTypes = (documents: readonly Pick<KybDocument, 'type' | 'status'>[]): KybDocumentType[] =>
  KYB_REQUIRED_TYPES.filter((type) => !documents.some((d) => d.type === type && d.status !== 'rejected'));

/** Each required type has an approved document. */
export const requiredApproved = (documents: readonly Pick<KybDocument, 'type' | 'status'>[]): boolean =>
  KYB_REQUIRED_TYPES.every((type) => documents.some((d) => d.type === type && d.status === 'approved'));

export const kybStatusView = (tenant: TenantKybRow, documents: readonly KybDocumentRow[]): KybStatus => ({
  status: tenant.kyb_status,
  verified_at: tenant.kyb_verified_at ? tenant.kyb_verified_at.toISOString() : null,
  documents_count: documents.length,
  rejection_reason: tenant.kyb_status === 'rejected' ? tenant.kyb_rejection_reason : null,
  missing_documents: tenant.kyb_status === 'verified' ? [] : missingTypes(documents),
});
