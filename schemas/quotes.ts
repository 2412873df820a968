import type { FromSchema } from 'json-schema-to-ts';
import { VAT_CATEGORIES } from '../domain/documents/index.js';
import { pageOf, pageParams } from './common.js';
import { invoiceProperties, lineProperties } from './invoices.js';

/** Quote statuses (origin-notes item 6): draft → sent → viewed → accepted → converted, and the exits. */
export const QUOTE_STATUSES = [
  'draft',
  'sent',
  'viewed',
  'accepted',
  'refused',
  'expired',
  'cancelled',
  'converted',
] as const;
export const ADMIN_QUOTE_PERIODS = ['today', 'week', 'month', 'quarter', 'year'] as const;

const id = (description: string) => ({ type: 'string', format: 'uuid', description }) as const;
const text = (maxLength: number, description: string) =>
  ({ type: 'string', minLength: 1, maxLength, pattern: '\\S', description }) as const;
const date = (description: string) => ({ type: 'string', format: 'date', description }) as const;
const nullableString = (description: string) => ({ type: ['string', 'null'], description }) as const;
const nullableTime = (description: string) => ({ type: ['string', 'null'], format: 'date-time', description }) as const;
const subTenantId = id('The sub-tenant (from the path).');

/** The body of a quote: the parties and lines of a tenant invoice body, plus the quote's own fields. */
const quoteProperties = {
  issue_date: date('Issue date of the quote.'),
  validity_date: date('Last day the buyer may accept the quote, on or after issue_date; the quote expires after it.'),
  currency: invoiceProperties.currency,
  seller_siret: invoiceProperties.seller_siret,
  seller_name: invoiceProperties.seller_name,
  seller_vat_number: invoiceProperties.seller_vat_number,
  seller_country: invoiceProperties.seller_country,
  seller_address: invoiceProperties.seller_address,
  buyer_siret: invoiceProperties.buyer_siret,
  buyer_name: invoiceProperties.buyer_name,
  buyer_country: invoiceProperties.buyer_country,
  buyer_vat_number: invoiceProperties.buyer_vat_number,
  buyer_legal_id: invoiceProperties.buyer_legal_id,
  buyer_address: invoiceProperties.buyer_address,
  buyer_is_individual: { type: 'boolean', description: invoiceProperties.buyer_is_individual.description },
  buyer_email: { type: 'string', format: 'email', maxLength: 255, description: "The buyer's e-mail address." },
  notes: text(5000, 'Free text printed on the quote.'),
  purchase_order_ref: text(100, "The buyer's purchase order reference."),
  payment_terms: text(1000, 'Payment terms printed on the quote.'),
  signature_required: {
    type: 'boolean',
    description: 'The buyer accepts by typing their name on the public page (always recorded); informative.',
  },
  callback_url: {
    type: 'string',
    format: 'uri',
    pattern: '^https://',
    maxLength: 500,
    description:
      'HTTPS address the buyer is sent to after answering, with `?status=signed|refused&quote_id&quote_number&reason`.',
  },
  lines: {
    type: 'array',
    minItems: 1,
    maxItems: 1000,
    description: 'Quote lines, at least one (the fields of invoice lines; totals computed).',
    items: {
      type: 'object',
      additionalProperties: false,
      required: ['description', 'quantity', 'unit_price', 'tax_rate'],
      properties: {
        description: lineProperties.description,
        quantity: lineProperties.quantity,
        unit_price: lineProperties.unit_price,
        tax_rate: lineProperties.tax_rate,
        vat_category: lineProperties.vat_category,
        vat_exemption_reason: lineProperties.vat_exemption_reason,
        unit_code: lineProperties.unit_code,
      },
    },
  },
} as const;

const quoteRequired = [
  'issue_date',
  'validity_date',
  'seller_siret',
  'seller_name',
  'seller_address',
  'buyer_name',
  'buyer_address',
  'lines',
] as const;

export const CreateQuoteInput = {
  $id: 'CreateQuoteInput',
  type: 'object',
  description:
    "A quote (devis) for one of the tenant's sub-tenants; its number `DEV-YYYY-NNNN` comes from the sub-tenant's own sequence. Checked by the rules of an invoice body.",
  additionalProperties: false,
  required: [...quoteRequired, 'subTenantId'],
  properties: { ...quoteProperties, subTenantId },
} as const;
export type CreateQuoteInput = FromSchema<typeof CreateQuoteInput>;

export const UpdateQuoteInput = {
  $id: 'UpdateQuoteInput',
  type: 'object',
  description:
    'A whole new body for a quote not yet accepted, converted or cancelled (409 otherwise). A quote already sent goes back to `draft`: send it again.',
  additionalProperties: false,
  required: [...quoteRequired, 'subTenantId', 'id'],
  properties: { ...quoteProperties, subTenantId, id: id('The quote.') },
} as const;
export type UpdateQuoteInput = FromSchema<typeof UpdateQuoteInput>;

export const QuoteIdInput = {
  $id: 'QuoteIdInput',
  type: 'object',
  description: 'A quote of a sub-tenant.',
  additionalProperties: false,
  required: ['subTenantId', 'id'],
  properties: { subTenantId, id: id('The quote.') },
} as const;
export type QuoteIdInput = FromSchema<typeof QuoteIdInput>;

export const CancelQuoteInput = {
  $id: 'CancelQuoteInput',
  type: 'object',
  description: 'Cancels a quote not yet converted; the reason is required.',
  additionalProperties: false,
  required: ['subTenantId', 'id', 'reason'],
  properties: { subTenantId, id: id('The quote.'), reason: text(1000, 'Why the quote is cancelled.') },
} as const;
export type CancelQuoteInput = FromSchema<typeof CancelQuoteInput>;

export const QuoteListInput = {
  $id: 'QuoteListInput',
  type: 'object',
  description: "A sub-tenant's quotes, newest first.",
  additionalProperties: false,
  required: ['subTenantId', 'page', 'per_page'],
  properties: {
    subTenantId,
    status: { type: 'string', enum: QUOTE_STATUSES, description: 'Only quotes in this status.' },
    q: text(100, 'Search in the number and the buyer name.'),
    ...pageParams(),
  },
} as const;
export type QuoteListInput = FromSchema<typeof QuoteListInput>;

export const ConvertQuoteToDepositInput = {
  $id: 'ConvertQuoteToDepositInput',
  type: 'object',
  description:
    'A deposit invoice (type 386) for part of an accepted quote: `percent` of its total, or an `amount` excluding VAT, spread over its VAT rates; exactly one of the two. Repeatable; the deposits never exceed the total.',
  additionalProperties: false,
  required: ['id'],
  properties: {
    id: id('The quote.'),
    subTenantId: id('The sub-tenant (from the path, on the sub-tenant route).'),
    percent: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 100,
      description: 'Percent of the quote total, up to 2 decimals.',
    },
    amount: { type: 'number', exclusiveMinimum: 0, description: 'Amount excluding VAT, at most 2 decimals.' },
    label: text(200, 'Label of the deposit line (default "Acompte").'),
    due_date: date('Payment due date of the deposit invoice.'),
  },
} as const;
export type ConvertQuoteToDepositInput = FromSchema<typeof ConvertQuoteToDepositInput>;

export const ConvertQuoteToBalanceInput = {
  $id: 'ConvertQuoteToBalanceInput',
  type: 'object',
  description:
    'The balance invoice (type 380) of an accepted quote: its total less the deposits, referencing the deposit invoices. Once only.',
  additionalProperties: false,
  required: ['id'],
  properties: {
    id: id('The quote.'),
    subTenantId: id('The sub-tenant (from the path, on the sub-tenant route).'),
    label: text(200, 'Label of the balance lines (default "Solde").'),
    due_date: date('Payment due date of the balance invoice.'),
  },
} as const;
export type ConvertQuoteToBalanceInput = FromSchema<typeof ConvertQuoteToBalanceInput>;

const partyView = {
  type: 'object',
  additionalProperties: false,
  required: ['siret', 'name', 'vat_number', 'country', 'address'],
  description: 'A party of the quote.',
  properties: {
    siret: nullableString('SIRET.'),
    name: { type: 'string', description: 'Name.' },
    vat_number: nullableString('VAT number.'),
    country: { type: 'string', description: 'Country.' },
    address: {
      type: 'object',
      additionalProperties: false,
      required: ['line1', 'line2', 'postal_code', 'city', 'country'],
      description: 'Postal address.',
      properties: {
        line1: { type: 'string', description: 'Street line.' },
        line2: nullableString('Second street line.'),
        postal_code: { type: 'string', description: 'Postal code.' },
        city: { type: 'string', description: 'City.' },
        country: { type: 'string', description: 'Country.' },
      },
    },
  },
} as const;

export const QuoteLine = {
  $id: 'QuoteLine',
  type: 'object',
  description: 'A quote line with its totals.',
  additionalProperties: false,
  required: [
    'line_number',
    'description',
    'quantity',
    'unit_price',
    'tax_rate',
    'vat_category',
    'unit_code',
    'total_ht',
    'total_tax',
    'total_ttc',
  ],
  properties: {
    line_number: { type: 'integer', description: 'Line number, from 1.' },
    description: { type: 'string', description: 'Description.' },
    quantity: { type: 'number', description: 'Quantity.' },
    unit_price: { type: 'number', description: 'Unit price excluding VAT.' },
    tax_rate: { type: 'number', description: 'VAT rate in percent.' },
    vat_category: { type: 'string', enum: VAT_CATEGORIES, description: 'VAT category.' },
    unit_code: { type: 'string', description: 'Unit (UN/ECE Rec 20).' },
    total_ht: { type: 'number', description: 'Line amount excluding VAT.' },
    total_tax: { type: 'number', description: 'Line VAT.' },
    total_ttc: { type: 'number', description: 'Line amount including VAT.' },
  },
} as const;

export const Quote = {
  $id: 'Quote',
  type: 'object',
  description: 'A quote (devis) with its lines, totals, answer, public link and the invoices it became.',
  additionalProperties: false,
  required: [
    'id',
    'quote_number',
    'status',
    'status_reason',
    'sub_tenant_id',
    'environment',
    'issue_date',
    'validity_date',
    'currency',
    'seller',
    'buyer',
    'buyer_email',
    'lines',
    'notes',
    'purchase_order_ref',
    'payment_terms',
    'signature_required',
    'callback_url',
    'total_ht',
    'total_tax',
    'total_ttc',
    'signature',
    'public_url',
    'public_link_expires_at',
    'invoice_ids',
    'deposits_total_ht',
    'remaining_ht',
    'duplicated_from',
    'created_at',
    'updated_at',
    'sent_at',
    'viewed_at',
    'answered_at',
    'cancelled_at',
    'converted_at',
  ],
  properties: {
    id: id('Quote id.'),
    quote_number: { type: 'string', description: 'DEV-YYYY-NNNN, per sub-tenant and year, without gaps.' },
    status: { type: 'string', enum: QUOTE_STATUSES, description: 'Status.' },
    status_reason: nullableString('Why it was cancelled or refused.'),
    sub_tenant_id: id('The sub-tenant.'),
    environment: { type: 'string', enum: ['sandbox', 'production'], description: 'Environment.' },
    issue_date: date('Issue date.'),
    validity_date: date('Last day it may be accepted.'),
    currency: { type: 'string', description: 'ISO 4217 code.' },
    seller: partyView,
    buyer: partyView,
    buyer_email: nullableString("The buyer's e-mail address."),
    lines: { type: 'array', items: { $ref: 'QuoteLine' }, description: 'Lines.' },
    notes: nullableString('Notes.'),
    purchase_order_ref: nullableString('Purchase order reference.'),
    payment_terms: nullableString('Payment terms.'),
    signature_required: { type: 'boolean', description: 'Whether a typed-name acceptance is asked for.' },
    callback_url: nullableString('Where the buyer is sent after answering.'),
    total_ht: { type: 'number', description: 'Total excluding VAT.' },
    total_tax: { type: 'number', description: 'Total VAT.' },
    total_ttc: { type: 'number', description: 'Total including VAT.' },
    signature: {
      type: ['object', 'null'],
      additionalProperties: false,
      required: ['signer_name', 'signer_email', 'ip', 'user_agent', 'signed_at'],
      description: "The buyer's acceptance: typed name, address, IP, browser and time.",
      properties: {
        signer_name: { type: 'string', description: 'The name the buyer typed.' },
        signer_email: nullableString("The buyer's e-mail address, if given."),
        ip: nullableString('IP address of the acceptance.'),
        user_agent: nullableString('Browser of the acceptance.'),
        signed_at: { type: 'string', format: 'date-time', description: 'When.' },
      },
    },
    public_url: nullableString("The buyer's page (90 days; null when revoked, expired or not made yet)."),
    public_link_expires_at: nullableTime('When the public link stops working.'),
    invoice_ids: {
      type: 'array',
      items: id('An invoice.'),
      description: 'Invoices it was converted into, oldest first.',
    },
    deposits_total_ht: { type: 'number', description: 'Deposits invoiced so far, excluding VAT.' },
    remaining_ht: { type: 'number', description: 'What is left to invoice, excluding VAT.' },
    duplicated_from: { type: ['string', 'null'], format: 'uuid', description: 'The quote it was copied from.' },
    created_at: { type: 'string', format: 'date-time', description: 'Created.' },
    updated_at: { type: 'string', format: 'date-time', description: 'Last changed.' },
    sent_at: nullableTime('Sent.'),
    viewed_at: nullableTime('First viewed by the buyer.'),
    answered_at: nullableTime('Accepted or refused.'),
    cancelled_at: nullableTime('Cancelled.'),
    converted_at: nullableTime('First converted into an invoice.'),
  },
} as const;
export type Quote = FromSchema<typeof Quote, { references: [typeof QuoteLine] }>;

export const QuotePage = pageOf('QuotePage', 'Quote', 'A page of quotes.');

export const QuoteConversion = {
  $id: 'QuoteConversion',
  type: 'object',
  description: 'The invoice a conversion issued, and the quote after it.',
  additionalProperties: false,
  required: ['invoice', 'quote'],
  properties: {
    invoice: { $ref: 'Invoice', description: 'The deposit (386) or balance (380) invoice: an ordinary invoice.' },
    quote: { $ref: 'Quote', description: 'The quote after the conversion.' },
  },
} as const;

export const QuoteFile = {
  $id: 'QuoteFile',
  type: 'string',
  description: 'The quote as a readable PDF.',
} as const;

export const QuoteAuditEntry = {
  $id: 'QuoteAuditEntry',
  type: 'object',
  description: 'One entry of the hash-chained quote log.',
  additionalProperties: false,
  required: [
    'sequence_number',
    'action',
    'details',
    'actor',
    'actor_ip',
    'created_at',
    'previousChainHash',
    'chainHash',
  ],
  properties: {
    sequence_number: { type: 'integer', description: 'From 1, without gaps.' },
    action: { type: 'string', description: '`quote.created`, `quote.sent`, `quote.accepted`, ...' },
    details: { type: 'object', description: 'What changed.' },
    actor: { type: 'object', description: 'Who: credential type and id, or the buyer.' },
    actor_ip: nullableString('IP address.'),
    created_at: { type: 'string', format: 'date-time', description: 'When.' },
    previousChainHash: { type: 'string', description: 'The previous entry’s chainHash (64 zeros for the first).' },
    chainHash: { type: 'string', description: 'SHA-256 of previousChainHash + SHA-256 of the canonical entry.' },
  },
} as const;

export const QuoteAuditLog = {
  $id: 'QuoteAuditLog',
  type: 'object',
  description: "A quote's audit log and whether its chain is intact.",
  additionalProperties: false,
  required: ['quote_id', 'valid', 'entries'],
  properties: {
    quote_id: id('The quote.'),
    valid: { type: 'boolean', description: 'Every link and hash checks.' },
    entries: { type: 'array', items: { $ref: 'QuoteAuditEntry' }, description: 'Oldest first.' },
  },
} as const;
export type QuoteAuditLog = FromSchema<typeof QuoteAuditLog, { references: [typeof QuoteAuditEntry] }>;

/** The public page (`/quote/{token}`). */
export const QuoteTokenInput = {
  $id: 'QuoteTokenInput',
  type: 'object',
  description: 'The token of a quote’s public link.',
  additionalProperties: false,
  required: ['token'],
  properties: { token: { type: 'string', minLength: 20, maxLength: 100, description: 'The link token.' } },
} as const;
export type QuoteTokenInput = FromSchema<typeof QuoteTokenInput>;

export const AcceptQuoteInput = {
  $id: 'AcceptQuoteInput',
  type: 'object',
  description: 'The buyer accepts the quote by typing their name.',
  additionalProperties: false,
  required: ['token', 'signer_name'],
  properties: {
    token: QuoteTokenInput.properties.token,
    signer_name: text(200, 'The full name the buyer types.'),
    signer_email: { type: 'string', format: 'email', maxLength: 255, description: "The buyer's e-mail address." },
  },
} as const;
export type AcceptQuoteInput = FromSchema<typeof AcceptQuoteInput>;

export const RefuseQuoteInput = {
  $id: 'RefuseQuoteInput',
  type: 'object',
  description: 'The buyer refuses the quote, optionally saying why.',
  additionalProperties: false,
  required: ['token'],
  properties: { token: QuoteTokenInput.properties.token, reason: text(1000, 'Why.') },
} as const;
export type RefuseQuoteInput = FromSchema<typeof RefuseQuoteInput>;

export const QuotePageView = {
  $id: 'QuotePageView',
  type: 'object',
  description: 'What the buyer’s page shows, and after an answer where to go next.',
  additionalProperties: false,
  required: [
    'quote_number',
    'status',
    'seller_name',
    'buyer_name',
    'issue_date',
    'validity_date',
    'currency',
    'lines',
    'total_ht',
    'total_tax',
    'total_ttc',
    'notes',
    'payment_terms',
    'redirect_url',
  ],
  properties: {
    quote_number: { type: 'string', description: 'Number.' },
    status: { type: 'string', enum: QUOTE_STATUSES, description: 'Status (expired once past its validity date).' },
    seller_name: { type: 'string', description: 'Seller.' },
    buyer_name: { type: 'string', description: 'Buyer.' },
    issue_date: date('Issue date.'),
    validity_date: date('Valid until.'),
    currency: { type: 'string', description: 'Currency.' },
    lines: { type: 'array', items: { $ref: 'QuoteLine' }, description: 'Lines.' },
    total_ht: { type: 'number', description: 'Total excluding VAT.' },
    total_tax: { type: 'number', description: 'VAT.' },
    total_ttc: { type: 'number', description: 'Total including VAT.' },
    notes: nullableString('Notes.'),
    payment_terms: nullableString('Payment terms.'),
    redirect_url: nullableString('After an answer: the seller’s callback address with the outcome.'),
  },
} as const;
export type QuotePageView = FromSchema<typeof QuotePageView, { references: [typeof QuoteLine] }>;

/** Admin. */
export const AdminQuoteListInput = {
  $id: 'AdminQuoteListInput',
  type: 'object',
  description: 'Quotes of every tenant, newest first.',
  additionalProperties: false,
  required: ['page', 'per_page'],
  properties: {
    status: { type: 'string', enum: QUOTE_STATUSES, description: 'Only this status.' },
    tenant_id: id('Only this tenant.'),
    sub_tenant_id: id('Only this sub-tenant.'),
    period: {
      type: 'string',
      enum: ADMIN_QUOTE_PERIODS,
      description: 'Created today, this week, month, quarter or year (UTC).',
    },
    date_from: date('Created on or after.'),
    date_to: date('Created on or before.'),
    q: text(100, 'Search in the number, buyer and seller names.'),
    ...pageParams(25, 200),
  },
} as const;
export type AdminQuoteListInput = FromSchema<typeof AdminQuoteListInput>;

export const AdminQuote = {
  $id: 'AdminQuote',
  type: 'object',
  description: 'A quote as the operator sees it: the quote and whose it is.',
  additionalProperties: false,
  required: ['tenant_id', 'tenant_name', 'quote'],
  properties: {
    tenant_id: id('The tenant.'),
    tenant_name: { type: 'string', description: 'The tenant name.' },
    quote: { $ref: 'Quote', description: 'The quote.' },
  },
} as const;
export type AdminQuote = FromSchema<typeof AdminQuote, { references: [typeof Quote, typeof QuoteLine] }>;
export const AdminQuotePage = pageOf('AdminQuotePage', 'AdminQuote', 'A page of quotes of every tenant.');

export const AdminQuoteIdInput = {
  $id: 'AdminQuoteIdInput',
  type: 'object',
  description: 'A quote of any tenant.',
  additionalProperties: false,
  required: ['quote'],
  properties: { quote: id('The quote.') },
} as const;
export type AdminQuoteIdInput = FromSchema<typeof AdminQuoteIdInput>;

export const AdminQuoteStats = {
  $id: 'AdminQuoteStats',
  type: 'object',
  description: 'Quotes of every tenant: counts by status, amounts, acceptance and conversion rates.',
  additionalProperties: false,
  required: [
    'total',
    'by_status',
    'total_ht',
    'accepted_ht',
    'converted_ht',
    'invoiced_ht',
    'acceptance_rate',
    'conversion_rate',
  ],
  properties: {
    total: { type: 'integer', description: 'Quotes.' },
    by_status: {
      type: 'object',
      additionalProperties: { type: 'integer' },
      description: 'Count per status (every status, 0 included).',
    },
    total_ht: { type: 'number', description: 'Sum of the quotes, excluding VAT.' },
    accepted_ht: { type: 'number', description: 'Sum of the accepted and converted quotes.' },
    converted_ht: { type: 'number', description: 'Sum of the converted quotes.' },
    invoiced_ht: { type: 'number', description: 'Sum of the invoices issued from quotes.' },
    acceptance_rate: { type: 'number', description: 'Accepted or converted, over those answered (0 to 1).' },
    conversion_rate: { type: 'number', description: 'Converted over accepted or converted (0 to 1).' },
  },
} as const;
export type AdminQuoteStats = FromSchema<typeof AdminQuoteStats>;

const issueList = (description: string) =>
  ({
    type: 'array',
    description,
    items: {
      type: 'object',
      additionalProperties: false,
      required: ['quote_id', 'tenant_id', 'quote_number', 'problem'],
      properties: {
        quote_id: id('The quote.'),
        tenant_id: id('Its tenant.'),
        quote_number: { type: 'string', description: 'Its number.' },
        problem: { type: 'string', description: 'What is wrong.' },
      },
    },
  }) as const;

export const QuoteIntegrityReport = {
  $id: 'QuoteIntegrityReport',
  type: 'object',
  description: 'Checks over every quote: orphans, conversions that do not add up, stuck statuses, broken audit chains.',
  additionalProperties: false,
  required: [
    'valid',
    'checked_at',
    'quotes_checked',
    'orphan_quotes',
    'inconsistent_conversions',
    'stuck_statuses',
    'broken_audit_chains',
  ],
  properties: {
    valid: { type: 'boolean', description: 'No problem found.' },
    checked_at: { type: 'string', format: 'date-time', description: 'When.' },
    quotes_checked: { type: 'integer', description: 'Quotes checked.' },
    orphan_quotes: issueList('Quotes whose sub-tenant is gone, or converted without an invoice.'),
    inconsistent_conversions: issueList('Invoices that exceed the quote, or a balance that does not complete it.'),
    stuck_statuses: issueList('Quotes still open past their validity date, or links past their expiry.'),
    broken_audit_chains: issueList('Audit logs whose links or hashes do not check.'),
  },
} as const;
export type QuoteIntegrityReport = FromSchema<typeof QuoteIntegrityReport>;

export const QuoteAuditExportInput = {
  $id: 'QuoteAuditExportInput',
  type: 'object',
  description: 'The quote audit entries of every tenant, between two dates (UTC, inclusive).',
  additionalProperties: false,
  properties: { date_from: date('From this day.'), date_to: date('To this day.') },
} as const;
export type QuoteAuditExportInput = FromSchema<typeof QuoteAuditExportInput>;

export const QuoteAuditExportFile = {
  $id: 'QuoteAuditExportFile',
  type: 'string',
  description: 'CSV (RFC 4180, UTF-8 with a byte-order mark, CRLF): one row per audit entry.',
} as const;

/** The quote of a job (its expiry, its mail). */
export const QuoteJobInput = {
  $id: 'QuoteJobInput',
  type: 'object',
  description: 'The quote a job is about.',
  additionalProperties: false,
  required: ['quote_id'],
  properties: { quote_id: id('The quote.') },
} as const;
export type QuoteJobInput = FromSchema<typeof QuoteJobInput>;

export const QuoteExpiryResult = {
  $id: 'QuoteExpiryResult',
  type: 'object',
  description: 'Whether the quote expired now (false: answered, cancelled, or still valid).',
  additionalProperties: false,
  required: ['expired'],
  properties: { expired: { type: 'boolean', description: 'It expired now.' } },
} as const;
export type QuoteExpiryResult = FromSchema<typeof QuoteExpiryResult>;

export const QuoteMail = {
  $id: 'QuoteMail',
  type: 'object',
  description: "What the mail to a quote's buyer says, and whether it is to be sent.",
  additionalProperties: false,
  required: [
    'send',
    'to',
    'quote_number',
    'seller_name',
    'buyer_name',
    'public_url',
    'validity_date',
    'total_ttc',
    'currency',
  ],
  properties: {
    send: { type: 'boolean', description: 'A production quote, sent or viewed, with a buyer address and a live link.' },
    to: nullableString("The buyer's address."),
    quote_number: { type: 'string', description: 'Number.' },
    seller_name: { type: 'string', description: 'Seller.' },
    buyer_name: { type: 'string', description: 'Buyer.' },
    public_url: nullableString('The link.'),
    validity_date: date('Valid until.'),
    total_ttc: { type: 'number', description: 'Total including VAT.' },
    currency: { type: 'string', description: 'Currency.' },
  },
} as const;
export type QuoteMail = FromSchema<typeof QuoteMail>;

export const quoteSchemas = [
  QuoteMail,
  QuoteJobInput,
  QuoteExpiryResult,
  CreateQuoteInput,
  UpdateQuoteInput,
  QuoteIdInput,
  CancelQuoteInput,
  QuoteListInput,
  ConvertQuoteToDepositInput,
  ConvertQuoteToBalanceInput,
  QuoteLine,
  Quote,
  QuotePage,
  QuoteConversion,
  QuoteFile,
  QuoteAuditEntry,
  QuoteAuditLog,
  QuoteTokenInput,
  AcceptQuoteInput,
  RefuseQuoteInput,
  QuotePageView,
  AdminQuoteListInput,
  AdminQuote,
  AdminQuotePage,
  AdminQuoteIdInput,
  AdminQuoteStats,
  QuoteIntegrityReport,
  QuoteAuditExportInput,
  QuoteAuditExportFile,
] as const;
