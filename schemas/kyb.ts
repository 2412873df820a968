import type { FromSchema } from 'json-schema-to-ts';
import { type PageMeta, pageParams } from './common.js';

/**
 * KYB (spec "KYB document", "KYB status", "KYB documents"): the documents a tenant uploads to get
 * verified, its KYB status, and the admins' review. Files go in as multipart (or base64 in JSON)
 * and come out only as bytes, to the owner or an admin.
 */

const uuid = (description: string) => ({ type: 'string', format: 'uuid', description }) as const;
const time = (description: string) => ({ type: 'string', format: 'date-time', description }) as const;
const nullableTime = (description: string) => ({ type: ['string', 'null'], format: 'date-time', description }) as const;

export const KYB_DOCUMENT_TYPES = ['kbis', 'id_card', 'articles', 'proof_of_address'] as const;
export const KYB_STATUSES = ['pending', 'documents_submitted', 'under_review', 'verified', 'rejected'] as const;

const documentType = {
  type: 'string',
  enum: KYB_DOCUMENT_TYPES,
  description:
    '`kbis` (company registration extract), `id_card` (identity document of the legal representative), `articles` (articles of association), `proof_of_address`.',
} as const;
const kybStatus = {
  type: 'string',
  enum: KYB_STATUSES,
  description:
    'pending → documents_submitted (documents uploaded) → under_review (an admin started the review) → verified or rejected; new documents after a rejection go back to documents_submitted. Production keys need `verified`.',
} as const;
const reason = {
  type: 'string',
  minLength: 1,
  maxLength: 1000,
  description: 'Why the document is refused: the tenant sees it (required to reject).',
} as const;

export const UploadKybDocumentInput = {
  $id: 'UploadKybDocumentInput',
  type: 'object',
  description: 'A KYB document: its type and the file.',
  additionalProperties: false,
  required: ['type', 'document'],
  properties: {
    type: documentType,
    document: {
      type: 'object',
      additionalProperties: false,
      required: ['filename', 'content'],
      description:
        'The file: PDF, JPG or PNG (checked by content, not by name), at most 10 MB. Send it as the `document` part of a multipart/form-data request, or in JSON as `{filename, content}` with the bytes in base64.',
      properties: {
        filename: { type: 'string', minLength: 1, maxLength: 255, description: 'File name.' },
        content: { type: 'string', maxLength: 14_000_000, description: 'The bytes, base64.' },
      },
    },
  },
} as const;
export type UploadKybDocumentInput = FromSchema<typeof UploadKybDocumentInput>;

export const KybDocumentIdInput = {
  $id: 'KybDocumentIdInput',
  type: 'object',
  description: 'A KYB document id.',
  additionalProperties: false,
  required: ['document'],
  properties: { document: uuid('KYB document id.') },
} as const;
export type KybDocumentIdInput = FromSchema<typeof KybDocumentIdInput>;

export const KybDocument = {
  $id: 'KybDocument',
  type: 'object',
  description: 'A KYB document as stored: what it is and where its review stands. Its bytes come from `.../download`.',
  additionalProperties: false,
  required: [
    'id',
    'type',
    'filename',
    'content_type',
    'size',
    'sha256',
    'status',
    'review_reason',
    'reviewed_at',
    'created_at',
  ],
  properties: {
    id: uuid('Document id.'),
    type: documentType,
    filename: { type: 'string', description: 'The uploaded file name (cleaned).' },
    content_type: {
      type: 'string',
      enum: ['application/pdf', 'image/jpeg', 'image/png'],
      description: 'The media type found in its content.',
    },
    size: { type: 'integer', description: 'Size in bytes.' },
    sha256: { type: 'string', description: 'SHA-256 (hex) of the file, to check a download against.' },
    status: {
      type: 'string',
      enum: ['pending', 'approved', 'rejected'],
      description: 'Its review: `pending` until an admin approves or rejects it.',
    },
    review_reason: { type: ['string', 'null'], description: 'Why it was rejected (or the note of its approval).' },
    reviewed_at: nullableTime('When an admin reviewed it.'),
    created_at: time('When it was uploaded.'),
  },
} as const;
export type KybDocument = FromSchema<typeof KybDocument>;

export const KybDocumentList = {
  $id: 'KybDocumentList',
  type: 'array',
  description: "The tenant's KYB documents, oldest first.",
  items: { $ref: 'KybDocument' },
} as const;
export type KybDocumentList = FromSchema<typeof KybDocumentList, { references: [typeof KybDocument] }>;

export const KybDocumentFile = {
  $id: 'KybDocumentFile',
  type: 'string',
  description: 'The bytes of a KYB document (PDF, JPG or PNG), as uploaded, named in Content-Disposition.',
} as const;

export const DeletedKybDocument = {
  $id: 'DeletedKybDocument',
  type: 'object',
  description: 'The KYB document is deleted, its bytes with it.',
  additionalProperties: false,
  required: ['message', 'id'],
  properties: {
    message: { type: 'string', description: 'What happened.' },
    id: uuid('The deleted document.'),
  },
} as const;
export type DeletedKybDocument = FromSchema<typeof DeletedKybDocument>;

export const KybStatus = {
  $id: 'KybStatus',
  type: 'object',
  description: "Where the tenant's KYB stands (spec: status, verified_at, documents_count, rejection_reason).",
  additionalProperties: false,
  required: ['status', 'verified_at', 'documents_count', 'rejection_reason', 'missing_documents'],
  properties: {
    status: kybStatus,
    verified_at: nullableTime('When the KYB was verified.'),
    documents_count: { type: 'integer', description: 'Documents uploaded and not deleted.' },
    rejection_reason: {
      type: ['string', 'null'],
      description: 'While `rejected`: why (the type of the refused document and the reason given).',
    },
    missing_documents: {
      type: 'array',
      items: documentType,
      description:
        'Required types (kbis, id_card, articles) with no document pending review or approved yet: upload these.',
    },
  },
} as const;
export type KybStatus = FromSchema<typeof KybStatus>;

export const ListPendingKybInput = {
  $id: 'ListPendingKybInput',
  type: 'object',
  description: 'A page of the tenants waiting for a KYB review.',
  additionalProperties: false,
  properties: pageParams(20, 100),
} as const;
export type ListPendingKybInput = FromSchema<typeof ListPendingKybInput>;

export const PendingKybTenant = {
  $id: 'PendingKybTenant',
  type: 'object',
  description: 'A tenant waiting for a KYB review, with its documents.',
  additionalProperties: false,
  required: ['tenant_id', 'name', 'legal_name', 'siret', 'email', 'kyb_status', 'submitted_at', 'documents'],
  properties: {
    tenant_id: uuid('Tenant id.'),
    name: { type: 'string', description: 'Tenant name.' },
    legal_name: { type: ['string', 'null'], description: 'Legal name.' },
    siret: { type: ['string', 'null'], description: 'SIRET.' },
    email: { type: ['string', 'null'], description: "The tenant's account e-mail." },
    kyb_status: { ...kybStatus, enum: ['documents_submitted', 'under_review'] },
    submitted_at: nullableTime('When documents last moved it to documents_submitted: the queue is in this order.'),
    documents: { type: 'array', items: { $ref: 'KybDocument' }, description: 'Its documents, oldest first.' },
  },
} as const;
export type PendingKybTenant = FromSchema<typeof PendingKybTenant, { references: [typeof KybDocument] }>;

export const PendingKybPage = {
  $id: 'PendingKybPage',
  type: 'object',
  description: 'Tenants waiting for a KYB review (documents_submitted or under_review), longest waiting first.',
  additionalProperties: false,
  required: ['data', 'meta'],
  properties: {
    data: { type: 'array', items: { $ref: 'PendingKybTenant' }, description: 'The tenants of this page.' },
    meta: { $ref: 'PageMeta', description: 'Pagination.' },
  },
} as const;
export type PendingKybPage = FromSchema<
  typeof PendingKybPage,
  { references: [typeof PendingKybTenant, typeof KybDocument, typeof PageMeta] }
>;

export const ReviewKybDocumentInput = {
  $id: 'ReviewKybDocumentInput',
  type: 'object',
  description: 'An admin decision on one KYB document.',
  additionalProperties: false,
  required: ['document', 'decision'],
  properties: {
    document: uuid('KYB document id.'),
    decision: {
      type: 'string',
      enum: ['approve', 'reject'],
      description:
        '`approve`: once each required type (kbis, id_card, articles) has an approved document the tenant is verified and its production keys work at once; `reject` (with a reason): the tenant is rejected until it uploads new documents.',
    },
    reason: reason,
  },
} as const;
export type ReviewKybDocumentInput = FromSchema<typeof ReviewKybDocumentInput>;

/** What the admin route hands the system step: the decision and who made it. */
export const ApplyKybReviewInput = {
  $id: 'ApplyKybReviewInput',
  type: 'object',
  description: 'An admin decision on one KYB document, with the admin who made it.',
  additionalProperties: false,
  required: ['document', 'decision', 'reviewer_id'],
  properties: {
    ...ReviewKybDocumentInput.properties,
    reviewer_id: uuid('The reviewing admin (a user id).'),
  },
} as const;
export type ApplyKybReviewInput = FromSchema<typeof ApplyKybReviewInput>;

export const KybReview = {
  $id: 'KybReview',
  type: 'object',
  description: "The reviewed document and where its tenant's KYB now stands.",
  additionalProperties: false,
  required: ['document', 'tenant_id', 'kyb'],
  properties: {
    document: { $ref: 'KybDocument', description: 'The document, reviewed.' },
    tenant_id: uuid('Its tenant.'),
    kyb: { $ref: 'KybStatus', description: "The tenant's KYB after the decision." },
  },
} as const;
export type KybReview = FromSchema<typeof KybReview, { references: [typeof KybDocument, typeof KybStatus] }>;

export const KybMailNotice = {
  $id: 'KybMailNotice',
  type: 'object',
  description: "Where to mail a tenant's KYB change.",
  additionalProperties: false,
  required: ['to', 'name'],
  properties: {
    to: {
      type: ['string', 'null'],
      description: 'The technical e-mail, else the account e-mail; null: nobody to mail.',
    },
    name: { type: 'string', description: 'Tenant name.' },
  },
} as const;
export type KybMailNotice = FromSchema<typeof KybMailNotice>;

export const kybSchemas = [
  UploadKybDocumentInput,
  KybDocumentIdInput,
  KybDocument,
  KybDocumentList,
  KybDocumentFile,
  DeletedKybDocument,
  KybStatus,
  ListPendingKybInput,
  PendingKybTenant,
  PendingKybPage,
  ReviewKybDocumentInput,
  ApplyKybReviewInput,
  KybReview,
  KybMailNotice,
] as const;
