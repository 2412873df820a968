import { KYB_DOCUMENT_MAX_BYTES } from '../../domain/tenants/index.js';
import {
  deleteKybDocument,
  downloadKybDocument,
  downloadKybDocumentForReview,
  getKybDocument,
  getKybStatus,
  listKybDocuments,
  listPendingKyb,
  reviewKybDocument,
  uploadKybDocument,
} from '../../domain/tenants/operations/index.js';
import type { RouteSpec } from '../http/route-spec.js';

const tenant = { tag: 'KYB', auth: ['tenant_key'] } as const;
/** Spec "Admin [Bearer, permission admin access]": the dashboard's token or cookie session, never an API key. */
const admin = { tag: 'Admin', auth: ['bearer', 'cookie'] } as const;
/** What a KYB file may be, as served back. */
const KYB_FILE_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;

/** Spec "KYB documents" [TenantKey]: the tenant's documents and status. */
export const kybRoutes: RouteSpec[] = [
  { ...tenant, method: 'get', path: '/api/v1/tenant/kyb/status', operation: getKybStatus },
  { ...tenant, method: 'get', path: '/api/v1/tenant/kyb/documents', operation: listKybDocuments },
  {
    ...tenant,
    method: 'post',
    path: '/api/v1/tenant/kyb/documents',
    operation: uploadKybDocument,
    status: 201,
    message: 'KYB document uploaded.',
    // Multipart as the specification says, or base64 in JSON (hence the body limit).
    upload: { field: 'document', maxBytes: KYB_DOCUMENT_MAX_BYTES },
    bodyLimit: '16mb',
    // 409 once the KYB is verified; 503 when the PDF reader is busy (retry) or APP_KEY is not set.
    errors: [409, 503],
  },
  { ...tenant, method: 'get', path: '/api/v1/tenant/kyb/documents/{document}', operation: getKybDocument },
  {
    ...tenant,
    method: 'get',
    path: '/api/v1/tenant/kyb/documents/{document}/download',
    operation: downloadKybDocument,
    file: KYB_FILE_TYPES,
  },
  {
    ...tenant,
    method: 'delete',
    path: '/api/v1/tenant/kyb/documents/{document}',
    operation: deleteKybDocument,
    envelope: 'raw',
    errors: [409],
  },
];

/** Spec "KYB documents" [Bearer admin]: the review queue, decisions and the files to review. */
export const adminKybRoutes: RouteSpec[] = [
  { ...admin, method: 'get', path: '/api/v1/admin/kyb/pending', operation: listPendingKyb, envelope: 'raw' },
  {
    ...admin,
    method: 'post',
    path: '/api/v1/admin/kyb/documents/{document}/review',
    operation: reviewKybDocument,
    message: 'KYB document reviewed.',
    errors: [409],
  },
  {
    ...admin,
    method: 'get',
    path: '/api/v1/admin/kyb/documents/{document}/download',
    operation: downloadKybDocumentForReview,
    file: KYB_FILE_TYPES,
  },
];
