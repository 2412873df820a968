import type { FromSchema } from 'json-schema-to-ts';
import { INCOMING_STATUSES, PAYMENT_MEANS_CODES, REASON_CODES } from '../domain/incoming/index.js';
import { pageOf, pageParams } from './common.js';

/** Schemas of incoming (supplier) invoices: registration, lists, decisions, the record. */

const id = { type: 'string', format: 'uuid', description: 'Incoming invoice id.' } as const;
const nullableString = (description: string) => ({ type: ['string', 'null'], description }) as const;
const nullableAmount = (description: string) => ({ type: ['number', 'null'], description }) as const;

export const RegisterIncomingInvoiceInput = {
  $id: 'RegisterIncomingInvoiceInput',
  type: 'object',
  description: 'A supplier invoice file to register by hand for a sub-tenant.',
  additionalProperties: false,
  required: ['id', 'file'],
  properties: {
    id: { type: 'string', format: 'uuid', description: 'The sub-tenant that received the invoice (path).' },
    file: {
      type: 'object',
      additionalProperties: false,
      required: ['filename', 'content'],
      description:
        'The invoice as received: a Factur-X PDF, a UBL 2.1 or a CII XML file of at most 10 MB. Send it as the `file` part of a multipart/form-data request, or in JSON as `{filename, content}` with the bytes in base64. XML with a DOCTYPE is refused.',
      properties: {
        filename: { type: 'string', minLength: 1, maxLength: 255, description: 'File name.' },
        content: { type: 'string', maxLength: 14_000_000, description: 'The bytes, base64.' },
      },
    },
  },
} as const;
export type RegisterIncomingInvoiceInput = FromSchema<typeof RegisterIncomingInvoiceInput>;

const filters = {
  status: { type: 'string', enum: INCOMING_STATUSES, description: 'Only invoices in this status.' },
  from: { type: 'string', format: 'date', description: 'Issued (or, unread, received) on or after this date.' },
  to: { type: 'string', format: 'date', description: 'Issued (or, unread, received) on or before this date.' },
  ...pageParams(25, 100),
} as const;

export const IncomingInvoiceListInput = {
  $id: 'IncomingInvoiceListInput',
  type: 'object',
  description: 'Filters of the incoming-invoice list.',
  additionalProperties: false,
  properties: filters,
} as const;
export type IncomingInvoiceListInput = FromSchema<typeof IncomingInvoiceListInput>;

export const SubTenantIncomingInvoiceListInput = {
  $id: 'SubTenantIncomingInvoiceListInput',
  type: 'object',
  description: "Filters of a sub-tenant's incoming-invoice list.",
  additionalProperties: false,
  required: ['id'],
  properties: { id: { type: 'string', format: 'uuid', description: 'Sub-tenant id (path).' }, ...filters },
} as const;
export type SubTenantIncomingInvoiceListInput = FromSchema<typeof SubTenantIncomingInvoiceListInput>;

export const IncomingInvoiceIdInput = {
  $id: 'IncomingInvoiceIdInput',
  type: 'object',
  description: 'An incoming invoice id.',
  additionalProperties: false,
  required: ['id'],
  properties: { id },
} as const;
export type IncomingInvoiceIdInput = FromSchema<typeof IncomingInvoiceIdInput>;

const reasonProperties = {
  id,
  reason: { type: 'string', minLength: 1, maxLength: 900, description: 'Why, in words (sent to the supplier).' },
  reason_code: {
    type: 'string',
    enum: REASON_CODES,
    default: 'AUTRE',
    description:
      'AFNOR reason code (XP Z12-012, MDT-113), e.g. `NON_CONFORME`, `MONTANTTOTAL_ERR`; `AUTRE` by default.',
  },
} as const;

export const RejectIncomingInvoiceInput = {
  $id: 'RejectIncomingInvoiceInput',
  type: 'object',
  description: 'Refuse a supplier invoice (French status 210 Refusée); a reason is required.',
  additionalProperties: false,
  required: ['id', 'reason'],
  properties: reasonProperties,
} as const;
export const DisputeIncomingInvoiceInput = {
  $id: 'DisputeIncomingInvoiceInput',
  type: 'object',
  description: 'Dispute a supplier invoice (French status 207 En litige); a reason is required.',
  additionalProperties: false,
  required: ['id', 'reason'],
  properties: reasonProperties,
} as const;
export type RejectIncomingInvoiceInput = FromSchema<typeof RejectIncomingInvoiceInput>;
export type DisputeIncomingInvoiceInput = FromSchema<typeof DisputeIncomingInvoiceInput>;
/** A rejection or a dispute: both schemas share their properties. */
export type IncomingReasonInput = RejectIncomingInvoiceInput | DisputeIncomingInvoiceInput;

export const MarkIncomingInvoicePaidInput = {
  $id: 'MarkIncomingInvoicePaidInput',
  type: 'object',
  description:
    'Record the payment of a supplier invoice (French status 211 Paiement transmis). Every field is optional: an empty body marks it paid today.',
  additionalProperties: false,
  required: ['id'],
  properties: {
    id,
    payment_reference: {
      type: 'string',
      minLength: 1,
      maxLength: 140,
      description:
        'Your reference of the payment (transfer reference, cheque number), sent to the supplier with the status.',
    },
    paid_at: {
      type: 'string',
      format: 'date',
      description: 'The day the payment was made (YYYY-MM-DD); today (UTC) when left out.',
    },
    payment_means_code: {
      type: 'string',
      enum: PAYMENT_MEANS_CODES,
      description: 'How it was paid, UNTDID 4461: `30` credit transfer, `58` SEPA credit transfer, `49` direct debit…',
    },
  },
} as const;
export type MarkIncomingInvoicePaidInput = FromSchema<typeof MarkIncomingInvoicePaidInput>;

const party = (description: string) =>
  ({
    type: 'object',
    description,
    additionalProperties: false,
    required: ['name', 'siret', 'vat_number', 'country'],
    properties: {
      name: nullableString('Name (BT-27 / BT-44).'),
      siret: nullableString('SIRET (legal registration identifier, scheme 0009).'),
      vat_number: nullableString('VAT identifier (BT-31 / BT-48).'),
      country: nullableString('Country code, ISO 3166-1 alpha-2.'),
    },
  }) as const;

export const IncomingInvoiceLine = {
  $id: 'IncomingInvoiceLine',
  type: 'object',
  description: 'A line of an incoming invoice, as the file states it.',
  additionalProperties: false,
  required: [
    'line_number',
    'description',
    'quantity',
    'unit_code',
    'unit_price',
    'total_ht',
    'vat_category',
    'vat_rate',
  ],
  properties: {
    line_number: { type: 'string', description: 'Line identifier (BT-126).' },
    description: nullableString('Item name (BT-153).'),
    quantity: nullableAmount('Invoiced quantity (BT-129).'),
    unit_code: nullableString('Unit of measure (BT-130).'),
    unit_price: nullableAmount('Net unit price (BT-146).'),
    total_ht: nullableAmount('Line net amount (BT-131).'),
    vat_category: nullableString('VAT category code (BT-151).'),
    vat_rate: nullableAmount('VAT rate in percent (BT-152).'),
  },
} as const;

export const IncomingInvoiceEvent = {
  $id: 'IncomingInvoiceEvent',
  type: 'object',
  description: 'A step of the status history.',
  additionalProperties: false,
  required: ['status', 'status_code', 'reason_code', 'reason', 'provider_status', 'created_at'],
  properties: {
    status: { type: 'string', enum: INCOMING_STATUSES, description: 'The status reached.' },
    status_code: nullableString('The French lifecycle code sent for it (`fr:205`, `fr:210`, `fr:207`, `fr:211`).'),
    reason_code: nullableString('AFNOR reason code, for a rejection or a dispute.'),
    reason: nullableString('Reason text, for a rejection or a dispute.'),
    provider_status: {
      type: 'string',
      enum: ['not_applicable', 'pending', 'sent'],
      description: 'Whether the status was sent to the e-invoicing provider (invoices received through it only).',
    },
    created_at: { type: 'string', format: 'date-time', description: 'When.' },
  },
} as const;

export const IncomingInvoice = {
  $id: 'IncomingInvoice',
  type: 'object',
  description: 'A supplier invoice received through the e-invoicing provider or registered by hand. Free of charge.',
  additionalProperties: false,
  required: [
    'id',
    'sub_tenant_id',
    'environment',
    'source',
    'pdp_id',
    'status',
    'format',
    'parse_error',
    'invoice_number',
    'type_code',
    'issue_date',
    'due_date',
    'currency',
    'seller',
    'buyer',
    'total_ht',
    'total_tax',
    'total_ttc',
    'amount_due',
    'lines',
    'file',
    'reason_code',
    'reason',
    'payment_reference',
    'payment_means_code',
    'paid_at',
    'decided_at',
    'events',
    'received_at',
    'created_at',
    'updated_at',
  ],
  properties: {
    id,
    sub_tenant_id: { type: ['string', 'null'], format: 'uuid', description: 'The sub-tenant that received it.' },
    environment: { type: 'string', enum: ['sandbox', 'production'], description: 'Environment.' },
    source: {
      type: 'string',
      enum: ['provider', 'manual'],
      description: 'Synchronised from the provider, or registered by hand.',
    },
    pdp_id: nullableString("The provider's invoice id."),
    status: { type: 'string', enum: INCOMING_STATUSES, description: 'Status.' },
    format: {
      type: ['string', 'null'],
      enum: ['ubl', 'cii', 'facturx', null],
      description: 'Format of the file; null when unreadable.',
    },
    parse_error: nullableString('Why the file could not be read (the file is kept; the fields are then null).'),
    invoice_number: nullableString('Invoice number (BT-1).'),
    type_code: nullableString('Document type (BT-3): 380 invoice, 381 credit note, 386 prepayment.'),
    issue_date: { type: ['string', 'null'], format: 'date', description: 'Issue date (BT-2).' },
    due_date: { type: ['string', 'null'], format: 'date', description: 'Due date (BT-9).' },
    currency: nullableString('Currency (BT-5).'),
    seller: party('The supplier (BG-4).'),
    buyer: party('The buyer (BG-7).'),
    total_ht: nullableAmount('Total without VAT (BT-109).'),
    total_tax: nullableAmount('Total VAT (BT-110).'),
    total_ttc: nullableAmount('Total with VAT (BT-112).'),
    amount_due: nullableAmount('Amount due for payment (BT-115).'),
    lines: { type: 'array', items: { $ref: 'IncomingInvoiceLine' }, description: 'Invoice lines.' },
    file: {
      type: 'object',
      description: 'The original file as received.',
      additionalProperties: false,
      required: ['filename', 'content_type', 'byte_size', 'sha256'],
      properties: {
        filename: { type: 'string', description: 'File name.' },
        content_type: { type: 'string', description: 'Media type.' },
        byte_size: { type: 'integer', description: 'Size in bytes.' },
        sha256: {
          type: 'string',
          description: 'SHA-256 of the file (hex): a file received twice is recognised by it.',
        },
      },
    },
    reason_code: nullableString('AFNOR reason code of the rejection or dispute.'),
    reason: nullableString('Reason of the rejection or dispute.'),
    payment_reference: nullableString('Payment reference, once paid.'),
    payment_means_code: nullableString('UNTDID 4461 payment means, once paid.'),
    paid_at: { type: ['string', 'null'], format: 'date', description: 'The day it was paid, once paid.' },
    decided_at: { type: ['string', 'null'], format: 'date-time', description: 'When the last decision was made.' },
    events: { type: 'array', items: { $ref: 'IncomingInvoiceEvent' }, description: 'Status history, oldest first.' },
    received_at: { type: 'string', format: 'date-time', description: 'When it was received.' },
    created_at: { type: 'string', format: 'date-time', description: 'When it was recorded here.' },
    updated_at: { type: 'string', format: 'date-time', description: 'Last change.' },
  },
} as const;

export type IncomingInvoice = FromSchema<
  typeof IncomingInvoice,
  { references: [typeof IncomingInvoiceLine, typeof IncomingInvoiceEvent] }
>;

export const IncomingInvoicePage = pageOf('IncomingInvoicePage', 'IncomingInvoice', 'A page of incoming invoices.');

export const SyncIncomingInvoicesInput = {
  $id: 'SyncIncomingInvoicesInput',
  type: 'object',
  description: "One provider account's inbox to synchronise.",
  additionalProperties: false,
  required: ['account_id', 'tenant_id', 'environment'],
  properties: {
    account_id: { type: 'string', minLength: 1, maxLength: 100, description: 'The provider connection id.' },
    tenant_id: { type: 'string', format: 'uuid', description: 'Its tenant.' },
    environment: { type: 'string', enum: ['sandbox', 'production'], description: 'Its environment.' },
    sub_tenant_id: {
      type: ['string', 'null'],
      format: 'uuid',
      description: 'The sub-tenant the account receives for.',
    },
  },
} as const;
export type SyncIncomingInvoicesInput = FromSchema<typeof SyncIncomingInvoicesInput>;

export const IncomingSyncOutcome = {
  $id: 'IncomingSyncOutcome',
  type: 'object',
  description: 'What one inbox sync did.',
  additionalProperties: false,
  required: ['stored', 'duplicates', 'unreadable', 'cursor'],
  properties: {
    stored: { type: 'integer', description: 'New incoming invoices stored.' },
    duplicates: { type: 'integer', description: 'Invoices recognised as already stored.' },
    unreadable: { type: 'integer', description: 'Stored with a parse error.' },
    cursor: nullableString('The provider invoice id the next sync starts after.'),
  },
} as const;
export type IncomingSyncOutcome = FromSchema<typeof IncomingSyncOutcome>;

const accountProperties = SyncIncomingInvoicesInput.properties;

export const StoreIncomingPageInput = {
  $id: 'StoreIncomingPageInput',
  type: 'object',
  description: "A page of a provider account's inbox, downloaded, to store; the cursor moves to `after_id` with it.",
  additionalProperties: false,
  required: ['account_id', 'tenant_id', 'environment', 'after_id', 'items'],
  properties: {
    ...accountProperties,
    after_id: { type: 'string', minLength: 1, maxLength: 64, description: 'The last provider invoice id of the page.' },
    items: {
      type: 'array',
      maxItems: 1000,
      description: 'The invoices of the page with their original files.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['pdp_id', 'received_at', 'content_type', 'content'],
        properties: {
          pdp_id: { type: 'string', minLength: 1, maxLength: 64, description: "The provider's invoice id." },
          received_at: { type: 'string', description: 'When the provider received it.' },
          content_type: { type: 'string', maxLength: 200, description: 'Media type the provider gave.' },
          content: { type: 'string', maxLength: 14_000_000, description: 'The original file, base64.' },
        },
      },
    },
  },
} as const;
export type StoreIncomingPageInput = FromSchema<typeof StoreIncomingPageInput>;

export const IncomingSyncCursor = {
  $id: 'IncomingSyncCursor',
  type: 'object',
  description: "Where a provider account's inbox sync stands.",
  additionalProperties: false,
  required: ['after_id'],
  properties: { after_id: nullableString('The last provider invoice id stored; null before the first.') },
} as const;
export type IncomingSyncCursor = FromSchema<typeof IncomingSyncCursor>;

export const ScheduleIncomingSyncsInput = {
  $id: 'ScheduleIncomingSyncsInput',
  type: 'object',
  description: 'Provider accounts whose inbox to synchronise; by default every account synchronised before.',
  additionalProperties: false,
  properties: {
    accounts: {
      type: 'array',
      maxItems: 10000,
      items: { $ref: 'SyncIncomingInvoicesInput' },
      description: 'The accounts (the connections table, once it exists); omitted: those with a sync cursor.',
    },
  },
} as const;
export type ScheduleIncomingSyncsInput = FromSchema<
  typeof ScheduleIncomingSyncsInput,
  { references: [typeof SyncIncomingInvoicesInput] }
>;

export const ScheduledIncomingSyncs = {
  $id: 'ScheduledIncomingSyncs',
  type: 'object',
  description: 'How many sync jobs were queued.',
  additionalProperties: false,
  required: ['queued'],
  properties: { queued: { type: 'integer', description: 'Jobs queued (an account already queued counts once).' } },
} as const;

export const IncomingStatusSendInput = {
  $id: 'IncomingStatusSendInput',
  type: 'object',
  description: 'A decision event whose lifecycle status is to be sent to the provider.',
  additionalProperties: false,
  required: ['event_id'],
  properties: {
    event_id: { type: 'string', format: 'uuid', description: 'The decision event.' },
    provider_event_id: { type: ['string', 'null'], maxLength: 64, description: "The provider's event id, once sent." },
    error: { type: 'string', maxLength: 1000, description: 'Why the attempt failed.' },
  },
} as const;
export type IncomingStatusSendInput = FromSchema<typeof IncomingStatusSendInput>;

export const IncomingStatusToSend = {
  $id: 'IncomingStatusToSend',
  type: 'object',
  description: 'A lifecycle status to send about an incoming invoice, and whether it was sent.',
  additionalProperties: false,
  required: [
    'sent',
    'account_id',
    'environment',
    'pdp_id',
    'status_code',
    'reason_code',
    'reason',
    'payment_reference',
    'attempts',
  ],
  properties: {
    sent: { type: 'boolean', description: 'Already sent.' },
    account_id: { type: 'string', description: 'The provider account that received the invoice.' },
    environment: { type: 'string', enum: ['sandbox', 'production'], description: 'Environment.' },
    pdp_id: { type: 'string', description: "The provider's invoice id." },
    status_code: { type: 'string', description: 'French lifecycle code.' },
    reason_code: nullableString('AFNOR reason code.'),
    reason: nullableString('Reason text.'),
    payment_reference: nullableString('The payment reference sent with `fr:211`.'),
    attempts: { type: 'integer', description: 'Attempts so far.' },
  },
} as const;
export type IncomingStatusToSend = FromSchema<typeof IncomingStatusToSend>;

export const incomingInvoiceSchemas = [
  RegisterIncomingInvoiceInput,
  IncomingInvoiceListInput,
  SubTenantIncomingInvoiceListInput,
  IncomingInvoiceIdInput,
  RejectIncomingInvoiceInput,
  DisputeIncomingInvoiceInput,
  MarkIncomingInvoicePaidInput,
  IncomingInvoiceLine,
  IncomingInvoiceEvent,
  IncomingInvoice,
  IncomingInvoicePage,
  SyncIncomingInvoicesInput,
  IncomingSyncOutcome,
  StoreIncomingPageInput,
  IncomingSyncCursor,
  ScheduleIncomingSyncsInput,
  ScheduledIncomingSyncs,
  IncomingStatusSendInput,
  IncomingStatusToSend,
];
