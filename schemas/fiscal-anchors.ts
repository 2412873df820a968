import type { FromSchema } from 'json-schema-to-ts';
import { pageParams } from './common.js';

const anchorStatus = {
  type: 'string',
  enum: ['pending', 'anchored', 'failed'],
  description:
    '`pending` until a TSA answers (retried while it is down), `anchored` with a token that verified, `failed` when the TSA refused or its token did not verify.',
} as const;

export const FiscalAnchor = {
  $id: 'FiscalAnchor',
  type: 'object',
  description:
    'An RFC 3161 time-stamp of a closing hash (spec "Fiscal records": Anchor). Check it with `openssl ts -verify -digest <data_hash> -in token.der -token_in -CAfile ca.pem`, the token and CA from the two routes below.',
  additionalProperties: false,
  required: [
    'id',
    'type',
    'entity_id',
    'data_hash',
    'anchor_reference',
    'anchored_at',
    'verified',
    'status',
    'tsa_name',
    'tsa_url',
    'policy',
    'token',
    'certificate_chain',
    'sub_tenant_id',
    'environment',
    'attempts',
    'last_error',
    'created_at',
  ],
  properties: {
    id: { type: 'string', format: 'uuid', description: 'Anchor id.' },
    type: { type: 'string', enum: ['closing'], description: 'What is anchored: a closing.' },
    entity_id: { type: 'string', format: 'uuid', description: 'The closing id.' },
    data_hash: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'The time-stamped hash: the closing hash.' },
    anchor_reference: {
      type: ['string', 'null'],
      description: 'The serial number the TSA gave the time-stamp (hex).',
    },
    anchored_at: { type: ['string', 'null'], format: 'date-time', description: 'The TSA’s time (TSTInfo genTime).' },
    verified: {
      type: 'boolean',
      description:
        'The token was verified in process: imprint, nonce, timeStamping certificate chaining to the CA, signed attributes and signature.',
    },
    status: anchorStatus,
    tsa_name: { type: ['string', 'null'], description: 'The signer’s name, from its certificate.' },
    tsa_url: { type: ['string', 'null'], description: 'The TSA’s URL; null for the built-in local authority.' },
    policy: { type: ['string', 'null'], description: 'The TSA policy OID of the time-stamp.' },
    token: { type: ['string', 'null'], description: 'The TimeStampToken (CMS SignedData), DER in base64.' },
    certificate_chain: {
      type: ['string', 'null'],
      description: 'The certificates carried in the token (PEM), the signer’s first.',
    },
    sub_tenant_id: {
      type: ['string', 'null'],
      format: 'uuid',
      description: 'The chain: a sub-tenant, or null for the tenant’s own.',
    },
    environment: { type: 'string', enum: ['sandbox', 'production'], description: 'Environment.' },
    attempts: { type: 'integer', minimum: 0, description: 'Calls made to the TSA so far.' },
    last_error: {
      type: ['string', 'null'],
      description: 'Why the last call did not anchor it (TSA down, refusal, invalid token), if so.',
    },
    created_at: { type: 'string', format: 'date-time', description: 'When the closing asked for it.' },
  },
} as const;

export const FiscalAnchorsInput = {
  $id: 'FiscalAnchorsInput',
  type: 'object',
  description: 'Filters of the anchors list.',
  additionalProperties: false,
  properties: {
    status: { ...anchorStatus, description: 'Only anchors in this state.' },
    entity_id: { type: 'string', format: 'uuid', description: 'The anchor of this closing.' },
    date_from: { type: 'string', format: 'date', description: 'Asked for on or after this UTC day.' },
    date_to: { type: 'string', format: 'date', description: 'Asked for on or before this UTC day.' },
    environment: { type: 'string', enum: ['sandbox', 'production'], description: "Must be the key's own environment." },
    sub_tenant_id: {
      type: 'string',
      format: 'uuid',
      description: "One sub-tenant's anchors; the key's own chains when left out.",
    },
    ...pageParams(20, 100),
  },
} as const;
export type FiscalAnchorsInput = FromSchema<typeof FiscalAnchorsInput>;

export const FiscalAnchorsPage = {
  $id: 'FiscalAnchorsPage',
  type: 'object',
  description: 'A page of anchors, newest first (`{success, data, meta}`).',
  additionalProperties: false,
  required: ['success', 'data', 'meta'],
  properties: {
    success: { type: 'boolean', description: 'Always true on a 200.' },
    data: { type: 'array', items: { $ref: 'FiscalAnchor' }, description: 'The anchors of this page.' },
    meta: { $ref: 'PageMeta', description: 'Pagination.' },
  },
} as const;

export const FiscalAnchorFileInput = {
  $id: 'FiscalAnchorFileInput',
  type: 'object',
  description: 'The anchor whose file to download.',
  additionalProperties: false,
  required: ['id'],
  properties: { id: { type: 'string', format: 'uuid', description: 'Anchor id.' } },
} as const;
export type FiscalAnchorFileInput = FromSchema<typeof FiscalAnchorFileInput>;

export const FiscalAnchorFile = {
  $id: 'FiscalAnchorFile',
  type: 'string',
  description:
    'The DER time-stamp token (`openssl ts -verify ... -in <file> -token_in`), or the PEM CA certificate it chains to (`-CAfile`).',
} as const;

export const AnchorToStampInput = {
  $id: 'AnchorToStampInput',
  type: 'object',
  description: 'An anchor a worker is to time-stamp (workers only).',
  additionalProperties: false,
  required: ['anchor_id'],
  properties: { anchor_id: { type: 'string', format: 'uuid', description: 'Anchor id.' } },
} as const;
export type AnchorToStampInput = FromSchema<typeof AnchorToStampInput>;

export const AnchorToStamp = {
  $id: 'AnchorToStamp',
  type: 'object',
  description: 'What a worker needs to time-stamp an anchor.',
  additionalProperties: false,
  required: ['id', 'status', 'data_hash'],
  properties: {
    id: { type: 'string', format: 'uuid', description: 'Anchor id.' },
    status: anchorStatus,
    data_hash: { type: 'string', description: 'The hash to time-stamp.' },
  },
} as const;
export type AnchorToStamp = FromSchema<typeof AnchorToStamp>;

export const RecordAnchorAttemptInput = {
  $id: 'RecordAnchorAttemptInput',
  type: 'object',
  description: 'A call to the TSA that got no answer (workers only).',
  additionalProperties: false,
  required: ['anchor_id', 'detail'],
  properties: {
    anchor_id: { type: 'string', format: 'uuid', description: 'Anchor id.' },
    detail: { type: 'string', maxLength: 1000, description: 'What went wrong.' },
  },
} as const;
export type RecordAnchorAttemptInput = FromSchema<typeof RecordAnchorAttemptInput>;

export const CompleteFiscalAnchorInput = {
  $id: 'CompleteFiscalAnchorInput',
  type: 'object',
  description: 'A TSA reply to record on a pending anchor (workers only).',
  additionalProperties: false,
  required: ['anchor_id', 'nonce', 'reply'],
  properties: {
    anchor_id: { type: 'string', format: 'uuid', description: 'Anchor id.' },
    nonce: { type: 'string', pattern: '^[0-9]{1,40}$', description: 'The request’s nonce, in decimal.' },
    reply: { type: 'string', maxLength: 1_500_000, description: 'The DER TimeStampResp, base64.' },
  },
} as const;
export type CompleteFiscalAnchorInput = FromSchema<typeof CompleteFiscalAnchorInput>;

export const fiscalAnchorSchemas = [
  FiscalAnchor,
  FiscalAnchorsInput,
  FiscalAnchorsPage,
  FiscalAnchorFileInput,
  FiscalAnchorFile,
  AnchorToStampInput,
  AnchorToStamp,
  RecordAnchorAttemptInput,
  CompleteFiscalAnchorInput,
] as const;
