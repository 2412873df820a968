import type { FromSchema } from 'json-schema-to-ts';
import { CII_PROFILES, OUTPUT_FORMATS, VAT_CATEGORIES } from '../domain/documents/index.js';
import { type ErrorResponse, pageOf, pageParams, tenantRowsBatch } from './common.js';
import type { LifecycleEvent } from './transmission.js';

/** Invoice statuses (spec "States and transitions: Invoice"). */
export const INVOICE_STATUSES = [
  'draft',
  'validated',
  'submitted',
  'transmitted',
  'processing',
  'completed',
  'failed',
  'paid',
  'rejected',
  'deleted',
] as const;

const text = (maxLength: number, description: string) =>
  ({ type: 'string', minLength: 1, maxLength, pattern: '\\S', description }) as const;
const date = (description: string) => ({ type: 'string', format: 'date', description }) as const;
const siret = (description: string) => ({ type: 'string', pattern: '^[0-9]{14}$', description }) as const;
const country = (description: string) => ({ type: 'string', pattern: '^[A-Z]{2}$', description }) as const;
const amount = (description: string) =>
  ({ type: 'number', description: `${description} At most 2 decimals.` }) as const;
const vatNumber = {
  type: 'string',
  pattern: '^[A-Z]{2}[0-9A-Z+*.]{2,13}$',
  description: 'VAT identifier: country code then 2 to 13 characters (`FR` + 2-digit key + SIREN for France).',
} as const;

const addressInput = {
  type: 'object',
  additionalProperties: false,
  required: ['line1', 'postal_code', 'city'],
  properties: {
    line1: text(255, 'Street line.'),
    line2: text(255, 'Second street line.'),
    postal_code: text(20, 'Postal code.'),
    city: text(255, 'City.'),
    country: country("ISO 3166-1 alpha-2 code; defaults to the party's `*_country`, then FR."),
  },
} as const;

export const lineProperties = {
  description: text(4000, 'What is sold (item name, BT-153), at most 4000 characters.'),
  quantity: {
    type: 'number',
    minimum: 0.001,
    maximum: 1_000_000_000,
    description: 'Quantity, at least 0.001, at most 4 decimals (at most one billion).',
  },
  unit_price: {
    type: 'number',
    minimum: 0,
    maximum: 1_000_000_000,
    description: 'Unit price excluding tax, at most 4 decimals (at most one billion).',
  },
  tax_rate: { type: 'number', minimum: 0, maximum: 100, description: 'VAT rate in percent, 0 to 100.' },
  vat_category: {
    type: 'string',
    enum: VAT_CATEGORIES,
    description:
      'EN 16931 VAT category: S standard, Z zero rated, E exempt, AE reverse charge, K intra-community supply, G export outside the EU, O not subject to VAT. Default: S for a positive rate, E for 0 %.',
  },
  vat_exemption_reason: text(
    500,
    'Why no VAT is due (BT-120); a legal text is used when omitted for E, AE, K, G and O.',
  ),
  unit_code: {
    type: 'string',
    pattern: '^[A-Z0-9]{1,3}$',
    description: 'Unit of measure, UN/ECE recommendation 20 (`C62` one, `HUR` hour, `DAY` day). Default C62.',
  },
  total_ht: amount('Line amount excluding tax: quantity × unit_price, rounded to 2 places.'),
  total_tax: amount('Line VAT: total_ht × tax_rate / 100, rounded to 2 places.'),
  total_ttc: amount('Line amount including tax: total_ht + total_tax.'),
} as const;

/** The creation body's fields (PATCH names the locked ones: schemas/invoice-reading.ts). */
export const invoiceProperties = {
  external_id: text(255, 'Your own reference, unique per owner, sub-tenant and environment: a second use answers 409.'),
  invoice_number: text(50, 'Invoice number (BT-1), at most 50 characters, unique per seller.'),
  direction: { type: 'string', enum: ['outgoing', 'incoming'], description: 'outgoing (you sell) or incoming.' },
  output_format: { type: 'string', enum: OUTPUT_FORMATS, description: 'Electronic format: facturx, ubl or cii.' },
  profile: {
    type: 'string',
    enum: CII_PROFILES,
    default: 'en16931',
    description: 'Factur-X / CII profile (BT-24). Default en16931.',
  },
  issue_date: date('Issue date (BT-2).'),
  due_date: date('Payment due date (BT-9), on or after issue_date.'),
  currency: { type: 'string', pattern: '^[A-Z]{3}$', default: 'EUR', description: 'ISO 4217 code, default EUR.' },
  total_ht: amount("Sum of the lines' total_ht (BR-CO-10)."),
  total_tax: amount('Total VAT (BR-CO-14): the VAT breakdown per rate.'),
  total_ttc: amount('total_ht + total_tax (BR-CO-15).'),
  seller_siret: siret('Seller SIRET: 14 digits, Luhn-valid.'),
  seller_name: text(255, 'Seller legal name.'),
  seller_vat_number: vatNumber,
  seller_country: country('Seller country, default FR.'),
  seller_address: { ...addressInput, description: 'Seller postal address.' },
  buyer_siret: siret('Buyer SIRET; required for a French business buyer.'),
  buyer_name: text(255, 'Buyer company name, or the full name of an individual.'),
  buyer_country: country('Buyer country, default FR.'),
  buyer_vat_number: vatNumber,
  buyer_legal_id: text(100, 'Another legal identifier of the buyer.'),
  buyer_address: { ...addressInput, description: 'Buyer postal address.' },
  buyer_is_individual: {
    type: 'boolean',
    default: false,
    description:
      'The buyer is a consumer: no SIRET needed, no buyer identifiers in the document, no B2B payment mentions.',
  },
  archive_enabled: { type: 'boolean', default: false, description: 'Long-term archiving.' },
  original_file: {
    type: 'object',
    additionalProperties: false,
    required: ['filename', 'content'],
    description:
      'The invoice as you issued it, kept with ours: a PDF or XML file of at most 10 MB, checked by content. Send it as the `original_file` part of a multipart/form-data request, or in JSON as `{filename, content}` with the bytes in base64.',
    properties: {
      filename: { type: 'string', minLength: 1, maxLength: 255, description: 'File name.' },
      content: { type: 'string', maxLength: 14_000_000, description: 'The bytes, base64.' },
    },
  },
  metadata: {
    type: 'object',
    maxProperties: 50,
    propertyNames: { type: 'string', minLength: 1, maxLength: 40 },
    additionalProperties: {
      anyOf: [{ type: 'string', maxLength: 500 }, { type: 'number' }, { type: 'boolean' }, { type: 'null' }],
    },
    description: 'Your key-value data (50 keys of at most 40 characters; values of at most 500).',
  },
} as const;

/** Fields the specification's creation body requires. */
const strictRequired = [
  'invoice_number',
  'direction',
  'output_format',
  'issue_date',
  'total_ht',
  'total_tax',
  'total_ttc',
  'seller_siret',
  'seller_name',
  'seller_address',
  'buyer_name',
  'buyer_address',
  'lines',
] as const;
/** Fields the tenant body requires: direction, format and totals are defaulted or computed. */
const tenantRequired = [
  'issue_date',
  'seller_siret',
  'seller_name',
  'seller_address',
  'buyer_name',
  'buyer_address',
  'lines',
] as const;
const tenantProperties = {
  invoice_number: {
    ...invoiceProperties.invoice_number,
    description:
      "Invoice number (BT-1), at most 50 characters, unique per seller. Left out on a sub-tenant's invoice, the next number of the sub-tenant's own sequence is given (`F-000001`, `F-000002`…, the prefix from the tenant's `settings.invoice_prefix`); required otherwise.",
  },
  direction: { ...invoiceProperties.direction, default: 'outgoing' },
  output_format: { ...invoiceProperties.output_format, default: 'facturx' },
  subTenantId: {
    type: 'string',
    format: 'uuid',
    description: 'The sub-tenant (from the path on sub-tenant routes).',
  },
} as const;
const strictLineRequired = [
  'description',
  'quantity',
  'unit_price',
  'tax_rate',
  'total_ht',
  'total_tax',
  'total_ttc',
] as const;
const tenantLineRequired = ['description', 'quantity', 'unit_price', 'tax_rate'] as const;

/**
 * A creation body: `strict` is the specification's (totals required), otherwise the tenant routes'.
 * Both variants are typed as literals, so that FromSchema reads each one as it is.
 */
const invoiceInput = <Id extends string, Strict extends boolean>(id: Id, description: string, strict: Strict) =>
  ({
    $id: id,
    type: 'object',
    description,
    additionalProperties: false,
    required: (strict ? strictRequired : tenantRequired) as Strict extends true
      ? typeof strictRequired
      : typeof tenantRequired,
    properties: {
      ...invoiceProperties,
      ...((strict ? {} : tenantProperties) as Strict extends true ? Record<never, never> : typeof tenantProperties),
      lines: {
        type: 'array',
        minItems: 1,
        maxItems: 1000,
        description: 'Invoice lines, at least one.',
        items: {
          type: 'object',
          additionalProperties: false,
          required: (strict ? strictLineRequired : tenantLineRequired) as Strict extends true
            ? typeof strictLineRequired
            : typeof tenantLineRequired,
          properties: lineProperties,
        },
      },
    },
  }) as const;

/** POST /v1/invoices and /v1/sandbox/invoices: the specification's creation body, totals included. */
export const CreateInvoiceInput = invoiceInput(
  'CreateInvoiceInput',
  'An invoice to create (spec "Invoice (creation body)"). The totals are checked the way EN 16931 does.',
  true,
);
/** Tenant routes: the same fields; direction, format and every total may be left out (computed). */
export const CreateTenantInvoiceInput = invoiceInput(
  'CreateTenantInvoiceInput',
  'An invoice to create for the tenant or one of its sub-tenants. Totals left out are computed; totals given are checked.',
  false,
);

export type CreateInvoiceInput = FromSchema<typeof CreateInvoiceInput>;
export type CreateTenantInvoiceInput = FromSchema<typeof CreateTenantInvoiceInput>;
/**
 * What the domain receives from either body: the tenant body, whose required fields are the fewer
 * (the specification's body is one of its values: the same fields, more of them required).
 */
export type InvoiceInput = CreateTenantInvoiceInput;

export const BulkCreateInvoicesInput = {
  $id: 'BulkCreateInvoicesInput',
  type: 'object',
  description: 'Up to 100 invoices, each created in its own transaction.',
  additionalProperties: false,
  required: ['invoices'],
  properties: {
    invoices: {
      type: 'array',
      minItems: 1,
      maxItems: 100,
      description: 'The invoices (tenant creation bodies).',
      items: { type: 'object', description: 'A tenant invoice creation body.' },
    },
  },
} as const;
export type BulkCreateInvoicesInput = FromSchema<typeof BulkCreateInvoicesInput>;

export const BulkCreateInvoicesResult = {
  $id: 'BulkCreateInvoicesResult',
  type: 'object',
  description: 'What happened to each invoice of a bulk creation, by its index in the request.',
  additionalProperties: false,
  required: ['created', 'failed', 'results'],
  properties: {
    created: { type: 'integer', description: 'Invoices created.' },
    failed: { type: 'integer', description: 'Invoices refused.' },
    results: {
      type: 'array',
      description: 'One result per request item, in order.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['index', 'status'],
        properties: {
          index: { type: 'integer', description: 'Position of the item in `invoices`, from 0.' },
          status: { type: 'string', enum: ['created', 'failed'], description: 'Outcome.' },
          invoice: { $ref: 'Invoice', description: 'The invoice created.' },
          error: { $ref: 'ErrorResponse', description: 'Why the item was refused (the error shape).' },
        },
      },
    },
  },
} as const;
export type BulkCreateInvoicesResult = FromSchema<
  typeof BulkCreateInvoicesResult,
  { references: [typeof Invoice, typeof InvoiceLine, typeof LifecycleEvent, typeof ErrorResponse] }
>;

const addressOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['line1', 'line2', 'postal_code', 'city', 'country'],
  properties: {
    line1: { type: 'string', description: 'Street line.' },
    line2: { type: ['string', 'null'], description: 'Second street line.' },
    postal_code: { type: 'string', description: 'Postal code.' },
    city: { type: 'string', description: 'City.' },
    country: { type: 'string', description: 'Country code.' },
  },
} as const;

/** What the nested buyer has that the seller has not. */
const buyerOnly = {
  legal_id: { type: ['string', 'null'], description: 'Other legal identifier.' },
  is_individual: { type: 'boolean', description: 'A consumer.' },
} as const;

const partyOutput = <Who extends 'seller' | 'buyer'>(who: Who) =>
  ({
    type: 'object',
    additionalProperties: false,
    required: ['siret', 'name', 'vat_number', 'country', 'address'],
    description: `The ${who}, nested.`,
    properties: {
      siret: { type: ['string', 'null'], description: 'SIRET.' },
      name: { type: 'string', description: 'Name.' },
      vat_number: { type: ['string', 'null'], description: 'VAT identifier.' },
      country: { type: 'string', description: 'Country code.' },
      address: { ...addressOutput, description: 'Postal address.' },
      // typed per party, so that FromSchema sees the buyer's extra fields as the literals they are
      ...((who === 'buyer' ? buyerOnly : {}) as Who extends 'buyer' ? typeof buyerOnly : Record<never, never>),
    },
  }) as const;

const num = (description: string) => ({ type: 'number', description }) as const;
const str = (description: string) => ({ type: 'string', description }) as const;
const nullableStr = (description: string) => ({ type: ['string', 'null'], description }) as const;

export const InvoiceLine = {
  $id: 'InvoiceLine',
  type: 'object',
  description: 'One line of an invoice.',
  additionalProperties: false,
  required: [
    'line_number',
    'description',
    'quantity',
    'unit_price',
    'tax_rate',
    'vat_category',
    'vat_exemption_reason',
    'unit_code',
    'total_ht',
    'total_tax',
    'total_ttc',
  ],
  properties: {
    line_number: { type: 'integer', description: 'Position, from 1.' },
    description: str('What is sold.'),
    quantity: num('Quantity.'),
    unit_price: num('Unit price excluding tax.'),
    tax_rate: num('VAT rate in percent.'),
    vat_category: { type: 'string', enum: VAT_CATEGORIES, description: 'EN 16931 VAT category.' },
    vat_exemption_reason: nullableStr('Why no VAT is due.'),
    unit_code: str('Unit of measure (UN/ECE rec. 20).'),
    total_ht: num('Amount excluding tax.'),
    total_tax: num('VAT.'),
    total_ttc: num('Amount including tax.'),
  },
} as const;

export const Invoice = {
  $id: 'Invoice',
  type: 'object',
  description: 'An invoice, with its lines; seller and buyer both flat (`seller_*`) and nested (`seller`).',
  additionalProperties: false,
  required: [
    'id',
    'invoice_number',
    'external_id',
    'direction',
    'output_format',
    'profile',
    'status',
    'status_message',
    'issue_date',
    'due_date',
    'currency',
    'total_ht',
    'total_tax',
    'total_ttc',
    'seller_siret',
    'seller_name',
    'seller_vat_number',
    'seller_country',
    'seller_address',
    'buyer_siret',
    'buyer_name',
    'buyer_vat_number',
    'buyer_legal_id',
    'buyer_country',
    'buyer_address',
    'buyer_is_individual',
    'seller',
    'buyer',
    'lines',
    'sub_tenant_id',
    'company_id',
    'environment',
    'amount_charged',
    'archive_enabled',
    'metadata',
    'documents_status',
    'created_at',
    'updated_at',
  ],
  properties: {
    id: { type: 'string', format: 'uuid', description: 'Invoice id.' },
    invoice_number: str('Invoice number.'),
    external_id: nullableStr('Your reference.'),
    direction: { type: 'string', enum: ['outgoing', 'incoming'], description: 'Direction.' },
    output_format: { type: 'string', enum: OUTPUT_FORMATS, description: 'Electronic format.' },
    profile: { type: 'string', enum: CII_PROFILES, description: 'Factur-X / CII profile.' },
    status: { type: 'string', enum: INVOICE_STATUSES, description: 'Lifecycle status.' },
    status_message: nullableStr('Reason, notably on rejection or failure.'),
    issue_date: { type: 'string', format: 'date', description: 'Issue date.' },
    due_date: { type: ['string', 'null'], format: 'date', description: 'Due date.' },
    currency: str('ISO 4217 code.'),
    total_ht: num('Total excluding tax.'),
    total_tax: num('Total VAT.'),
    total_ttc: num('Total including tax.'),
    seller_siret: str('Seller SIRET.'),
    seller_name: str('Seller name.'),
    seller_vat_number: nullableStr('Seller VAT identifier.'),
    seller_country: str('Seller country.'),
    seller_address: { ...addressOutput, description: 'Seller postal address.' },
    buyer_siret: nullableStr('Buyer SIRET.'),
    buyer_name: str('Buyer name.'),
    buyer_vat_number: nullableStr('Buyer VAT identifier.'),
    buyer_legal_id: nullableStr('Buyer legal identifier.'),
    buyer_country: str('Buyer country.'),
    buyer_address: { ...addressOutput, description: 'Buyer postal address.' },
    buyer_is_individual: { type: 'boolean', description: 'The buyer is a consumer.' },
    seller: partyOutput('seller'),
    buyer: partyOutput('buyer'),
    lines: { type: 'array', items: { $ref: 'InvoiceLine' }, description: 'Lines, by line_number.' },
    sub_tenant_id: { type: ['string', 'null'], format: 'uuid', description: 'Sub-tenant, if any.' },
    company_id: { type: ['string', 'null'], format: 'uuid', description: 'Your company that issued it, if known.' },
    environment: { type: 'string', enum: ['sandbox', 'production'], description: 'Environment.' },
    amount_charged: num('What creating it cost (0 in sandbox).'),
    archive_enabled: { type: 'boolean', description: 'Long-term archiving.' },
    metadata: { type: 'object', description: 'Your key-value data.' },
    documents_status: {
      type: 'string',
      enum: ['pending', 'ready', 'failed'],
      description:
        'Whether the files are generated yet. A download asked for while pending renders them in the request (up to 200 lines); longer documents answer 409 DOCUMENT_NOT_READY, their job moved to the front of the document queue, until the worker has made them.',
    },
    pdp_id: nullableStr("The e-invoicing provider's id of the invoice, once uploaded."),
    submitted_at: { type: ['string', 'null'], format: 'date-time', description: 'When it was submitted.' },
    payment_sent_at: {
      type: ['string', 'null'],
      format: 'date-time',
      description: 'When the buyer said the payment is sent (`fr:211`).',
    },
    paid_at: { type: ['string', 'null'], format: 'date-time', description: 'When the payment was received.' },
    lifecycle_events: {
      type: 'array',
      items: { $ref: 'LifecycleEvent' },
      description: 'The raw lifecycle events from the provider, oldest first (on `GET /v1/invoices/{id}`).',
    },
    created_at: { type: 'string', format: 'date-time', description: 'Creation time.' },
    updated_at: { type: 'string', format: 'date-time', description: 'Last change.' },
  },
} as const;

export type Invoice = FromSchema<typeof Invoice, { references: [typeof InvoiceLine, typeof LifecycleEvent] }>;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const InvoiceListInput = {
  $id: 'InvoiceListInput',
  type: 'object',
  description: 'Filters of GET /v1/invoices.',
  additionalProperties: false,
  properties: {
    company_id: { type: 'string', format: 'uuid', description: 'Invoices of one of your companies.' },
    status: {
      type: 'string',
      enum: INVOICE_STATUSES,
      description:
        'Status; `validated` also finds `completed` invoices. Deleted drafts are listed only with `status=deleted`.',
    },
    direction: { type: 'string', enum: ['outgoing', 'incoming'], description: 'Direction.' },
    environment: { type: 'string', enum: ['sandbox', 'production'], description: 'Environment (keys: their own).' },
    from: { type: 'string', format: 'date', description: 'Issued on or after.' },
    to: { type: 'string', format: 'date', description: 'Issued on or before.' },
    subTenantId: {
      type: 'string',
      format: 'uuid',
      description: 'The sub-tenant (from the path on sub-tenant routes).',
    },
    ...pageParams(25, 100),
  },
} as const;
export type InvoiceListInput = FromSchema<typeof InvoiceListInput>;

export const InvoicePage = pageOf('InvoicePage', 'Invoice', 'A page of invoices.');

export const InvoiceIdInput = {
  $id: 'InvoiceIdInput',
  type: 'object',
  description: 'An invoice id.',
  additionalProperties: false,
  required: ['id'],
  properties: { id: { type: 'string', format: 'uuid', description: 'Invoice id.' } },
} as const;
export type InvoiceIdInput = FromSchema<typeof InvoiceIdInput>;

const fileSummary = {
  type: 'object',
  additionalProperties: false,
  required: ['kind', 'byte_size', 'sha256'],
  properties: {
    kind: { type: 'string', description: 'pdf, facturx, ubl or cii.' },
    byte_size: { type: 'integer', description: 'Size in bytes.' },
    sha256: { type: 'string', description: 'SHA-256 of the bytes, hex.' },
  },
} as const;

export const GeneratedDocuments = {
  $id: 'GeneratedDocuments',
  type: 'object',
  description: 'What the document worker made of an invoice.',
  additionalProperties: false,
  required: ['id', 'documents_status', 'files'],
  properties: {
    id: { type: 'string', format: 'uuid', description: 'Invoice id.' },
    documents_status: {
      type: 'string',
      enum: ['ready', 'failed', 'skipped', 'missing'],
      description: 'Outcome (skipped: already ready; missing: no such invoice, e.g. deleted since).',
    },
    files: { type: 'array', items: { ...fileSummary, description: 'A file.' }, description: 'Files stored.' },
  },
} as const;
export type GeneratedDocuments = FromSchema<typeof GeneratedDocuments>;

export const InvoiceDocumentsInput = tenantRowsBatch(
  'InvoiceDocumentsInput',
  'invoices',
  'Invoices whose files the document worker renders together, each with its tenant.',
  'Invoice id.',
);
export type InvoiceDocumentsInput = FromSchema<typeof InvoiceDocumentsInput>;

export const GeneratedDocumentsBatch = {
  $id: 'GeneratedDocumentsBatch',
  type: 'object',
  description: 'What the document worker made of each invoice of a batch.',
  additionalProperties: false,
  required: ['invoices'],
  properties: {
    invoices: {
      type: 'array',
      items: { $ref: 'GeneratedDocuments' },
      description: 'One outcome per invoice asked for, in the same order (`missing`: no such invoice).',
    },
  },
} as const;
export type GeneratedDocumentsBatch = FromSchema<
  typeof GeneratedDocumentsBatch,
  { references: [typeof GeneratedDocuments] }
>;

export const ConvertInvoiceInput = {
  $id: 'ConvertInvoiceInput',
  type: 'object',
  description: 'An invoice and the electronic format to produce from its data.',
  additionalProperties: false,
  required: ['invoice_id', 'target_format'],
  properties: {
    invoice_id: { type: 'string', format: 'uuid', description: 'The invoice.' },
    target_format: { type: 'string', enum: OUTPUT_FORMATS, description: 'facturx, ubl or cii.' },
  },
} as const;
export type ConvertInvoiceInput = FromSchema<typeof ConvertInvoiceInput>;

export const InvoiceConversion = {
  $id: 'InvoiceConversion',
  type: 'object',
  description: 'The file produced, and a link that serves it for 15 minutes.',
  additionalProperties: false,
  required: ['invoice_id', 'source_format', 'target_format', 'files', 'url', 'expires_at'],
  properties: {
    invoice_id: { type: 'string', format: 'uuid', description: 'The invoice.' },
    source_format: { type: 'string', enum: OUTPUT_FORMATS, description: 'The format it was issued in.' },
    target_format: { type: 'string', enum: OUTPUT_FORMATS, description: 'The format produced.' },
    files: {
      type: 'array',
      items: { ...fileSummary, description: 'A file.' },
      description: 'Files stored (Factur-X also stores its CII).',
    },
    url: {
      type: 'string',
      format: 'uri',
      description: 'Download link of the target file, valid 15 minutes, no credentials needed.',
    },
    expires_at: { type: 'string', format: 'date-time', description: 'When the link stops working.' },
  },
} as const;
export type InvoiceConversion = FromSchema<typeof InvoiceConversion>;

export const invoiceSchemas = [
  GeneratedDocuments,
  InvoiceDocumentsInput,
  GeneratedDocumentsBatch,
  ConvertInvoiceInput,
  InvoiceConversion,
  CreateInvoiceInput,
  CreateTenantInvoiceInput,
  BulkCreateInvoicesInput,
  BulkCreateInvoicesResult,
  InvoiceLine,
  Invoice,
  InvoiceListInput,
  InvoicePage,
  InvoiceIdInput,
] as const;
