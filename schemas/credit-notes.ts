import type { FromSchema } from 'json-schema-to-ts';
import { VAT_CATEGORIES } from '../domain/documents/index.js';
import { pageOf, pageParams } from './common.js';

/** Credit note statuses and types (spec "Credit note"). */
export const CREDIT_NOTE_STATUSES = ['draft', 'sent'] as const;
export const CREDIT_NOTE_TYPES = ['partial', 'total'] as const;
/** Files of a credit note: readable PDF, Factur-X PDF/A-3, UBL 2.1 CreditNote, CII (TypeCode 381). */
export const CREDIT_NOTE_FILE_TYPES = ['pdf', 'facturx', 'ubl', 'cii'] as const;

const id = (description: string) => ({ type: 'string', format: 'uuid', description }) as const;
const str = (description: string) => ({ type: 'string', description }) as const;
const num = (description: string) => ({ type: 'number', description }) as const;
const subTenantId = id('The sub-tenant (from the path on sub-tenant routes).');

export const CreateCreditNoteInput = {
  $id: 'CreateCreditNoteInput',
  type: 'object',
  description:
    "A credit note against one invoice. An item credits one invoice line (named by `line_number`, or by its exact description) at that line's VAT rate; an item that names no line (a discount, a goodwill gesture) is a free one, credited at one of the invoice's VAT rates. The amount cannot exceed what remains creditable: per line for the items bound to a line, per VAT rate and in total for all of them.",
  additionalProperties: false,
  required: ['invoice_id', 'reason', 'items'],
  properties: {
    invoice_id: id('The invoice credited.'),
    reason: {
      type: 'string',
      minLength: 1,
      maxLength: 1000,
      pattern: '\\S',
      description: 'Why the invoice is credited.',
    },
    items: {
      type: 'array',
      minItems: 1,
      maxItems: 1000,
      description: 'What is credited, at least one item.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['description', 'quantity', 'unit_price', 'tax_rate'],
        properties: {
          description: {
            type: 'string',
            minLength: 1,
            maxLength: 1000,
            pattern: '\\S',
            description:
              'Description. Without line_number, the description of an invoice line binds the item to that line; any other description makes it a free item (a discount, a goodwill gesture).',
          },
          quantity: { type: 'number', minimum: 0.001, description: 'Quantity credited, at most 4 decimals.' },
          unit_price: {
            type: 'number',
            minimum: 0,
            description:
              "Unit price excluding VAT, above 0, at most 4 decimals; quantity × unit_price must fit in what remains of the line's amount (a bound item), of the invoice's amount at the rate, and of the invoice's total.",
          },
          tax_rate: {
            type: 'number',
            minimum: 0,
            maximum: 100,
            description: "VAT rate in percent: the invoice line's rate, or for a free item one of the invoice's rates.",
          },
          vat_category: {
            type: 'string',
            enum: VAT_CATEGORIES,
            description:
              "VAT category (beyond the specification): the invoice line's for a bound item; for a free item, needed only when the invoice has its rate under two categories (0 %: E and AE, say).",
          },
          line_number: {
            type: 'integer',
            minimum: 1,
            description:
              'The invoice line credited (beyond the specification; optional when the description names it). Leave it out for a free item.',
          },
        },
      },
    },
    credit_note_number: {
      type: 'string',
      minLength: 1,
      maxLength: 50,
      pattern: '\\S',
      description: 'Your number (unique per seller); generated as AV-YYYY-NNNN when left out.',
    },
    issue_date: {
      type: 'string',
      format: 'date',
      description: "Issue date; today by default (the invoice's date when it is later). Not before the invoice's.",
    },
    subTenantId,
  },
} as const;
export type CreateCreditNoteInput = FromSchema<typeof CreateCreditNoteInput>;

export const CreditNoteItem = {
  $id: 'CreditNoteItem',
  type: 'object',
  description:
    'One credited part of an invoice line, or a free item (a discount, a goodwill gesture) at one of its rates.',
  additionalProperties: false,
  required: [
    'line_number',
    'invoice_line_number',
    'description',
    'quantity',
    'unit_price',
    'tax_rate',
    'vat_category',
    'total_ht',
    'total_tax',
    'total_ttc',
  ],
  properties: {
    line_number: { type: 'integer', description: 'Position in the credit note, from 1.' },
    invoice_line_number: {
      type: ['integer', 'null'],
      description: 'The invoice line credited; null for a free item, credited at one of the invoice rates.',
    },
    description: str('Description.'),
    quantity: num('Quantity credited.'),
    unit_price: num('Unit price excluding VAT.'),
    tax_rate: num('VAT rate, percent.'),
    vat_category: {
      type: 'string',
      enum: VAT_CATEGORIES,
      description: "The VAT category: the invoice line's, or the invoice's at the free item's rate.",
    },
    total_ht: num('quantity × unit_price, rounded to the cent.'),
    total_tax: num('VAT of the item, rounded to the cent.'),
    total_ttc: num('total_ht + total_tax.'),
  },
} as const;

export const CreditNote = {
  $id: 'CreditNote',
  type: 'object',
  description: 'A credit note, with its items. Amounts are positive: what is credited.',
  additionalProperties: false,
  required: [
    'id',
    'credit_note_number',
    'invoice_id',
    'invoice_number',
    'type',
    'status',
    'reason',
    'issue_date',
    'currency',
    'total_ht',
    'total_tax',
    'total_ttc',
    'buyer_is_individual',
    'items',
    'environment',
    'sub_tenant_id',
    'amount_charged',
    'documents_status',
    'sent_at',
    'deleted_at',
    'created_at',
    'updated_at',
  ],
  properties: {
    id: id('Credit note id.'),
    credit_note_number: str('Credit note number (AV-YYYY-NNNN when generated).'),
    invoice_id: id('The invoice credited.'),
    invoice_number: str('Its number (BT-25 of the documents).'),
    type: { type: 'string', enum: CREDIT_NOTE_TYPES, description: '`total` when it credited all that remained.' },
    status: { type: 'string', enum: CREDIT_NOTE_STATUSES, description: '`draft`, or `sent` (irreversible).' },
    reason: str('Why the invoice is credited.'),
    issue_date: { type: 'string', format: 'date', description: 'Issue date.' },
    currency: str("ISO 4217 code: the invoice's."),
    total_ht: num('Total credited excluding VAT.'),
    total_tax: num('VAT credited.'),
    total_ttc: num('Total credited including VAT.'),
    buyer_is_individual: { type: 'boolean', description: 'Inherited from the invoice: the buyer is a consumer.' },
    items: { type: 'array', items: { $ref: 'CreditNoteItem' }, description: 'Items, by line_number.' },
    environment: { type: 'string', enum: ['sandbox', 'production'], description: "The invoice's environment." },
    sub_tenant_id: { type: ['string', 'null'], format: 'uuid', description: 'Sub-tenant, if any.' },
    amount_charged: num('What creating it cost (0.04 in production, 0 in sandbox).'),
    documents_status: {
      type: 'string',
      enum: ['pending', 'ready', 'failed'],
      description:
        'Whether the files are generated yet. A download asked for while pending renders them in the request (up to 200 lines); longer documents answer 409 DOCUMENT_NOT_READY, their job moved to the front of the document queue, until the worker has made them.',
    },
    sent_at: { type: ['string', 'null'], format: 'date-time', description: 'When it was sent.' },
    deleted_at: { type: ['string', 'null'], format: 'date-time', description: 'When the draft was deleted.' },
    created_at: { type: 'string', format: 'date-time', description: 'Creation time.' },
    updated_at: { type: 'string', format: 'date-time', description: 'Last change.' },
  },
} as const;

export const CreditNoteListInput = {
  $id: 'CreditNoteListInput',
  type: 'object',
  description: 'Filters of GET /v1/credit-notes.',
  additionalProperties: false,
  properties: {
    status: { type: 'string', enum: CREDIT_NOTE_STATUSES, description: 'Status.' },
    invoice_id: id('Credit notes of one invoice.'),
    type: { type: 'string', enum: CREDIT_NOTE_TYPES, description: 'Partial or total.' },
    subTenantId,
    ...pageParams(15, 100),
  },
} as const;
export type CreditNoteListInput = FromSchema<typeof CreditNoteListInput>;

export const CreditNotePage = pageOf('CreditNotePage', 'CreditNote', 'A page of credit notes.');

export const CreditNoteIdInput = {
  $id: 'CreditNoteIdInput',
  type: 'object',
  description: 'A credit note id.',
  additionalProperties: false,
  required: ['id'],
  properties: { id: id('Credit note id.') },
} as const;
export type CreditNoteIdInput = FromSchema<typeof CreditNoteIdInput>;

export const CreditNoteDownloadInput = {
  $id: 'CreditNoteDownloadInput',
  type: 'object',
  description: 'Which file of a credit note to download.',
  additionalProperties: false,
  required: ['id'],
  properties: {
    id: id('Credit note id.'),
    type: {
      type: 'string',
      enum: CREDIT_NOTE_FILE_TYPES,
      default: 'pdf',
      description:
        '`pdf` (default): the readable PDF; `facturx`: the Factur-X PDF/A-3; `ubl`: the UBL 2.1 CreditNote; `cii`: the CII credit note (381).',
    },
    link: {
      type: 'boolean',
      default: false,
      description:
        'Beyond the specification: `true` answers a JSON `{url, expires_at}`, a link to the file valid 15 minutes without credentials, instead of the file itself.',
    },
  },
} as const;
export type CreditNoteDownloadInput = FromSchema<typeof CreditNoteDownloadInput>;

export const CreditNoteFileInput = {
  $id: 'CreditNoteFileInput',
  type: 'object',
  description: 'A credit-note download link token.',
  additionalProperties: false,
  required: ['token'],
  properties: {
    token: { type: 'string', maxLength: 4096, description: 'The signed token of the download link.' },
  },
} as const;
export type CreditNoteFileInput = FromSchema<typeof CreditNoteFileInput>;

export const CreditNoteFile = {
  $id: 'CreditNoteFile',
  type: 'string',
  description: 'The bytes of a credit-note file (PDF, Factur-X PDF/A-3, CII or UBL XML), named in Content-Disposition.',
} as const;

export const RemainingCreditableInput = {
  $id: 'RemainingCreditableInput',
  type: 'object',
  description: 'The invoice whose remaining creditable amounts to read.',
  additionalProperties: false,
  required: ['invoice'],
  properties: { invoice: id('Invoice id.') },
} as const;
export type RemainingCreditableInput = FromSchema<typeof RemainingCreditableInput>;

const remainingLine = {
  type: 'object',
  description: 'One invoice line: invoiced, credited, left to credit.',
  additionalProperties: false,
  required: [
    'line_number',
    'description',
    'unit_price',
    'tax_rate',
    'original_quantity',
    'credited_quantity',
    'remaining_quantity',
    'original_ht',
    'credited_ht',
    'remaining_ht',
  ],
  properties: {
    line_number: { type: 'integer', description: 'Invoice line number.' },
    description: str('Its description.'),
    unit_price: num('Invoiced unit price excluding VAT.'),
    tax_rate: num('VAT rate, percent.'),
    original_quantity: num('Quantity invoiced.'),
    credited_quantity: num('Quantity credited so far.'),
    remaining_quantity: num('Quantity left to credit.'),
    original_ht: num('Line total excluding VAT.'),
    credited_ht: num('Credited so far, excluding VAT.'),
    remaining_ht: num('Left to credit, excluding VAT.'),
  },
} as const;

const remainingRate = {
  type: 'object',
  description:
    'One VAT rate of the invoice: invoiced, credited (by items bound to a line and by free items), left to credit.',
  additionalProperties: false,
  required: ['tax_rate', 'vat_category', 'original_ht', 'credited_ht', 'free_credited_ht', 'remaining_ht'],
  properties: {
    tax_rate: num('VAT rate, percent.'),
    vat_category: { type: 'string', enum: VAT_CATEGORIES, description: 'VAT category.' },
    original_ht: num("The invoice lines' amounts at this rate, excluding VAT."),
    credited_ht: num('Credited so far at this rate, excluding VAT.'),
    free_credited_ht: num('Of which by free items (discounts, goodwill gestures).'),
    remaining_ht: num('Left to credit at this rate, excluding VAT: the most a free item at it may credit.'),
  },
} as const;

export const RemainingCreditable = {
  $id: 'RemainingCreditable',
  type: 'object',
  description:
    'What is left to credit on an invoice, per line (quantity and amount), per VAT rate and in total (amounts excluding VAT). Free items count at their rate and in total, not on a line. Deleted draft credit notes do not count.',
  additionalProperties: false,
  required: [
    'invoice_id',
    'invoice_number',
    'currency',
    'invoice_total_ht',
    'already_credited_ht',
    'remaining_creditable_ht',
    'fully_credited',
    'lines',
    'rates',
  ],
  properties: {
    invoice_id: id('Invoice id.'),
    invoice_number: str('Invoice number.'),
    currency: str('ISO 4217 code.'),
    invoice_total_ht: num('Invoice total excluding VAT.'),
    already_credited_ht: num('Credited so far, excluding VAT.'),
    remaining_creditable_ht: num('Left to credit, excluding VAT.'),
    fully_credited: { type: 'boolean', description: 'Nothing is left to credit.' },
    lines: { type: 'array', items: remainingLine, description: 'Per invoice line (items bound to it).' },
    rates: { type: 'array', items: remainingRate, description: 'Per VAT rate (category and rate) of the invoice.' },
  },
} as const;

export const GeneratedCreditNoteDocuments = {
  $id: 'GeneratedCreditNoteDocuments',
  type: 'object',
  description: 'What the document worker made of a credit note.',
  additionalProperties: false,
  required: ['id', 'documents_status', 'files'],
  properties: {
    id: id('Credit note id.'),
    documents_status: {
      type: 'string',
      enum: ['ready', 'failed', 'skipped'],
      description: 'Outcome (skipped: already ready).',
    },
    files: {
      type: 'array',
      description: 'Files stored.',
      items: {
        type: 'object',
        description: 'A file.',
        additionalProperties: false,
        required: ['kind', 'byte_size', 'sha256'],
        properties: {
          kind: str('pdf, facturx, ubl or cii.'),
          byte_size: { type: 'integer', description: 'Size in bytes.' },
          sha256: str('SHA-256 of the bytes, hex.'),
        },
      },
    },
  },
} as const;
export type GeneratedCreditNoteDocuments = FromSchema<typeof GeneratedCreditNoteDocuments>;

export const creditNoteSchemas = [
  CreateCreditNoteInput,
  CreditNoteItem,
  CreditNote,
  CreditNoteListInput,
  CreditNotePage,
  CreditNoteIdInput,
  CreditNoteDownloadInput,
  CreditNoteFileInput,
  CreditNoteFile,
  RemainingCreditableInput,
  RemainingCreditable,
  GeneratedCreditNoteDocuments,
] as const;
