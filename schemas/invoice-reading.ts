import type { FromSchema } from 'json-schema-to-ts';
import { invoiceProperties } from './invoices.js';

/** Schemas of the invoice routes beyond creation: downloads, audit trail, changes. */

const invoiceId = { type: 'string', format: 'uuid', description: 'Invoice id.' } as const;

export const InvoiceDownloadInput = {
  $id: 'InvoiceDownloadInput',
  type: 'object',
  description: 'Which file of an invoice to download.',
  additionalProperties: false,
  required: ['id', 'type'],
  properties: {
    id: invoiceId,
    type: {
      type: 'string',
      enum: ['original', 'converted', 'pdf'],
      description:
        '`original`: the file uploaded at creation; `converted`: the Factur-X, UBL or CII file of the output format; `pdf`: the readable PDF.',
    },
  },
} as const;
export type InvoiceDownloadInput = FromSchema<typeof InvoiceDownloadInput>;

export const SandboxInvoiceDownloadInput = {
  $id: 'SandboxInvoiceDownloadInput',
  type: 'object',
  description: 'Which file of a sandbox invoice to download.',
  additionalProperties: false,
  required: ['id', 'type'],
  properties: {
    id: invoiceId,
    type: {
      type: 'string',
      enum: ['pdf', 'xml', 'facturx'],
      description: '`pdf`: the readable PDF; `xml`: the CII or UBL file; `facturx`: the Factur-X PDF/A-3.',
    },
  },
} as const;
export type SandboxInvoiceDownloadInput = FromSchema<typeof SandboxInvoiceDownloadInput>;

export const DownloadLink = {
  $id: 'DownloadLink',
  type: 'object',
  description: 'A link that serves the file without credentials until `expires_at` (15 minutes).',
  additionalProperties: false,
  required: ['url', 'expires_at'],
  properties: {
    url: { type: 'string', format: 'uri', description: 'Absolute URL of the file; GET it without credentials.' },
    expires_at: { type: 'string', format: 'date-time', description: 'When the link stops working (410 after).' },
  },
} as const;
export type DownloadLink = FromSchema<typeof DownloadLink>;

export const InvoiceFileInput = {
  $id: 'InvoiceFileInput',
  type: 'object',
  description: 'A download link token.',
  additionalProperties: false,
  required: ['token'],
  properties: {
    token: { type: 'string', maxLength: 4096, description: 'The signed token of the download link.' },
  },
} as const;
export type InvoiceFileInput = FromSchema<typeof InvoiceFileInput>;

export const InvoiceFile = {
  $id: 'InvoiceFile',
  type: 'string',
  description: 'The bytes of an invoice file (PDF, Factur-X PDF/A-3, CII or UBL XML), named in Content-Disposition.',
} as const;

export const InvoiceAuditEntry = {
  $id: 'InvoiceAuditEntry',
  type: 'object',
  description: 'One entry of an invoice audit trail.',
  additionalProperties: false,
  required: ['action', 'details', 'actor_ip', 'created_at'],
  properties: {
    action: {
      type: 'string',
      description: 'What happened: `invoice.created`, `invoice.updated`, `invoice.deleted`...',
    },
    details: { type: 'object', description: 'Facts recorded with the action.' },
    actor_ip: { type: ['string', 'null'], description: 'Source IP of the request that did it.' },
    created_at: { type: 'string', format: 'date-time', description: 'When.' },
  },
} as const;

export const InvoiceAuditTrail = {
  $id: 'InvoiceAuditTrail',
  type: 'object',
  description: "An invoice's audit trail, oldest first, and whether its hash chain is intact.",
  additionalProperties: false,
  required: ['data', 'integrity_valid'],
  properties: {
    data: { type: 'array', items: { $ref: 'InvoiceAuditEntry' }, description: 'Entries, oldest first.' },
    integrity_valid: {
      type: 'boolean',
      description: 'The hash chain of the trail, recomputed now, matches every stored entry.',
    },
  },
} as const;
export type InvoiceAuditTrail = FromSchema<typeof InvoiceAuditTrail, { references: [typeof InvoiceAuditEntry] }>;

/** Fields of the creation body that are locked once the invoice exists (it is in the fiscal ledger). */
export const LOCKED_INVOICE_FIELDS: readonly string[] = [
  ...Object.keys(invoiceProperties).filter((name) => name !== 'metadata' && name !== 'archive_enabled'),
  'lines',
];

const locked = {
  description: 'Locked: the invoice is in the fiscal ledger. Sending it answers 409 INVOICE_IMMUTABLE.',
} as const;

export const UpdateInvoiceInput = {
  $id: 'UpdateInvoiceInput',
  type: 'object',
  description:
    'What may change on an invoice: `metadata` and `archive_enabled`. Fiscal fields are locked (409 INVOICE_IMMUTABLE).',
  additionalProperties: false,
  required: ['id'],
  properties: {
    ...Object.fromEntries(LOCKED_INVOICE_FIELDS.map((name) => [name, locked])),
    id: invoiceId,
    metadata: {
      ...invoiceProperties.metadata,
      description: `${invoiceProperties.metadata.description} Replaces the whole object.`,
    },
    // No default here: a PATCH without it leaves the setting as it is.
    archive_enabled: { type: 'boolean', description: 'Long-term archiving.' },
  },
} as const;
/**
 * The locked fields' names are computed (Object.fromEntries), which FromSchema cannot see: they are
 * added back as an index signature, each holding whatever a client sent.
 */
export type UpdateInvoiceInput = FromSchema<typeof UpdateInvoiceInput> & { [locked: string]: unknown };

export const invoiceReadingSchemas = [
  InvoiceDownloadInput,
  SandboxInvoiceDownloadInput,
  DownloadLink,
  InvoiceFileInput,
  InvoiceFile,
  InvoiceAuditEntry,
  InvoiceAuditTrail,
  UpdateInvoiceInput,
] as const;
