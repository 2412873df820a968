import type { FromSchema } from 'json-schema-to-ts';

/** Inputs and outputs of the transmission workers' operations and of `einvoice provider connect`. */

const uuid = (description: string) => ({ type: 'string', format: 'uuid', description }) as const;
const str = (description: string) => ({ type: 'string', description }) as const;
const nullableStr = (description: string) => ({ type: ['string', 'null'], description }) as const;
const environment = { type: 'string', enum: ['sandbox', 'production'], description: 'Environment.' } as const;

export const InvoiceJobInput = {
  $id: 'InvoiceJobInput',
  type: 'object',
  description: 'The invoice a worker works on.',
  additionalProperties: false,
  required: ['invoice_id'],
  properties: { invoice_id: uuid('Invoice id.') },
} as const;
export type InvoiceJobInput = FromSchema<typeof InvoiceJobInput>;

export const ProviderAccount = {
  $id: 'ProviderAccount',
  type: 'object',
  description: 'A provider connection, as the port names it.',
  additionalProperties: false,
  required: ['id', 'tenantId', 'environment'],
  properties: { id: uuid('Connection id.'), tenantId: uuid('Tenant id.'), environment },
} as const;

export const TransmissionPlan = {
  $id: 'TransmissionPlan',
  type: 'object',
  description: 'What the transmission worker does next with an invoice.',
  additionalProperties: false,
  required: ['action'],
  properties: {
    action: {
      type: 'string',
      enum: ['skip', 'upload', 'wait'],
      description: 'skip: nothing to do; upload: send the file; wait: its file is not generated yet.',
    },
    reason: str('Why (skip, wait).'),
    account: { $ref: 'ProviderAccount', description: 'The connection to use.' },
    external_id: str('Our invoice id, the provider’s external_id.'),
    processing_rule: { type: 'string', enum: ['B2B', 'B2BInt', 'B2C'], description: 'SuperPDP processing rule.' },
    content_type: { type: 'string', enum: ['application/pdf', 'application/xml'], description: 'File type.' },
    filename: str('File name.'),
    file_base64: str('The file, base64.'),
  },
} as const;
export type TransmissionPlan = FromSchema<typeof TransmissionPlan, { references: [typeof ProviderAccount] }>;

export const ProviderEventData = {
  $id: 'ProviderEventData',
  type: 'object',
  description: 'One provider event (domain/transmission/einvoicing-provider.ts ProviderEvent).',
  additionalProperties: false,
  required: ['id', 'invoiceId', 'statusCode', 'statusText', 'reason', 'createdAt'],
  properties: {
    id: str('Provider event id.'),
    invoiceId: str('Provider invoice id.'),
    statusCode: str('Code.'),
    statusText: str('Provider text.'),
    reason: nullableStr('Reason.'),
    createdAt: str('When.'),
  },
} as const;

export const UploadOutcomeInput = {
  $id: 'UploadOutcomeInput',
  type: 'object',
  description: 'What an upload attempt gave.',
  additionalProperties: false,
  required: ['invoice_id', 'outcome'],
  properties: {
    invoice_id: uuid('Invoice id.'),
    outcome: {
      type: 'string',
      enum: ['accepted', 'refused', 'unavailable'],
      description:
        'accepted (or found already uploaded), refused (final), unavailable (counted; final after the limit).',
    },
    connection_id: uuid('The connection used.'),
    pdp_id: str("The provider's id."),
    message: { type: 'string', maxLength: 2000, description: 'Refusal or error message.' },
    events: { type: 'array', items: { $ref: 'ProviderEventData' }, description: 'Events returned with the upload.' },
  },
} as const;
export type UploadOutcomeInput = FromSchema<typeof UploadOutcomeInput, { references: [typeof ProviderEventData] }>;

export const UploadOutcome = {
  $id: 'UploadOutcome',
  type: 'object',
  description: 'The invoice after the attempt was recorded.',
  additionalProperties: false,
  required: ['invoice_id', 'status', 'retry'],
  properties: {
    invoice_id: uuid('Invoice id.'),
    status: str('Invoice status.'),
    retry: { type: 'boolean', description: 'The worker should try again later.' },
  },
} as const;
export type UploadOutcome = FromSchema<typeof UploadOutcome>;

export const ConnectionIdInput = {
  $id: 'ConnectionIdInput',
  type: 'object',
  description: 'A provider connection.',
  additionalProperties: false,
  required: ['connection_id'],
  properties: { connection_id: uuid('Connection id.') },
} as const;
export type ConnectionIdInput = FromSchema<typeof ConnectionIdInput>;

export const SyncCursor = {
  $id: 'SyncCursor',
  type: 'object',
  description: "Where a connection's event stream was last read.",
  additionalProperties: false,
  required: ['account', 'cursor'],
  properties: {
    account: { $ref: 'ProviderAccount', description: 'The connection.' },
    cursor: nullableStr('Last event id stored; null: from the start.'),
  },
} as const;
export type SyncCursor = FromSchema<typeof SyncCursor, { references: [typeof ProviderAccount] }>;

export const ProviderEventsInput = {
  $id: 'ProviderEventsInput',
  type: 'object',
  description: 'A page of provider events to store, and the cursor after it.',
  additionalProperties: false,
  required: ['connection_id', 'events', 'cursor'],
  properties: {
    connection_id: uuid('Connection id.'),
    events: { type: 'array', items: { $ref: 'ProviderEventData' }, description: 'The page.' },
    cursor: nullableStr('The last event id of the page.'),
  },
} as const;
export type ProviderEventsInput = FromSchema<typeof ProviderEventsInput, { references: [typeof ProviderEventData] }>;

export const ProviderEventsOutcome = {
  $id: 'ProviderEventsOutcome',
  type: 'object',
  description: 'What a stored page changed.',
  additionalProperties: false,
  required: ['applied', 'pending'],
  properties: {
    applied: { type: 'integer', description: 'New events recorded on our invoices.' },
    pending: {
      type: 'integer',
      description: 'Invoices of the connection still on their way (worth another look soon).',
    },
  },
} as const;
export type ProviderEventsOutcome = FromSchema<typeof ProviderEventsOutcome>;

export const ConnectionsToSync = {
  $id: 'ConnectionsToSync',
  type: 'object',
  description: 'Active connections whose events are read on schedule.',
  additionalProperties: false,
  required: ['connections'],
  properties: {
    connections: {
      type: 'array',
      description: 'Connections.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['connection_id', 'tenant_id'],
        properties: { connection_id: uuid('Connection id.'), tenant_id: uuid('Tenant id.') },
      },
    },
  },
} as const;
export type ConnectionsToSync = FromSchema<typeof ConnectionsToSync>;

export const ConnectProviderInput = {
  $id: 'ConnectProviderInput',
  type: 'object',
  description: 'A SuperPDP OAuth client (client credentials) for a tenant, sub-tenant or company.',
  additionalProperties: false,
  required: ['tenant_id', 'client_id', 'client_secret'],
  properties: {
    tenant_id: uuid('Tenant.'),
    environment: { ...environment, description: 'Environment (default production).' },
    sub_tenant_id: uuid('Sub-tenant it serves (none: the tenant itself).'),
    company_id: uuid('Company it serves (none: every company of the owner).'),
    client_id: { type: 'string', minLength: 1, maxLength: 255, description: 'OAuth client id.' },
    client_secret: {
      type: 'string',
      minLength: 1,
      maxLength: 1000,
      description: 'OAuth client secret (stored encrypted).',
    },
  },
} as const;
export type ConnectProviderInput = FromSchema<typeof ConnectProviderInput>;

export const ProviderConnection = {
  $id: 'ProviderConnection',
  type: 'object',
  description: 'A provider connection (secrets never shown).',
  additionalProperties: false,
  required: ['id', 'tenant_id', 'environment', 'provider', 'status', 'client_id', 'sub_tenant_id', 'company_id'],
  properties: {
    id: uuid('Connection id.'),
    tenant_id: uuid('Tenant.'),
    environment,
    provider: { type: 'string', enum: ['superpdp', 'simulator'], description: 'Provider.' },
    status: str('active, pending_review, failed or disabled.'),
    client_id: nullableStr('OAuth client id.'),
    sub_tenant_id: nullableStr('Sub-tenant.'),
    company_id: nullableStr('Company.'),
  },
} as const;
export type ProviderConnection = FromSchema<typeof ProviderConnection>;

export const StatusTarget = {
  $id: 'StatusTarget',
  type: 'object',
  description: 'Where to send a status about an invoice; skip when it cannot be sent.',
  additionalProperties: false,
  required: ['skip'],
  properties: {
    skip: { type: 'boolean', description: 'Nothing to send.' },
    account: { $ref: 'ProviderAccount', description: 'The connection.' },
    pdp_id: str("The provider's invoice id."),
  },
} as const;
export type StatusTarget = FromSchema<typeof StatusTarget, { references: [typeof ProviderAccount] }>;

export const transmissionJobSchemas = [
  InvoiceJobInput,
  ProviderAccount,
  TransmissionPlan,
  ProviderEventData,
  UploadOutcomeInput,
  UploadOutcome,
  ConnectionIdInput,
  SyncCursor,
  ProviderEventsInput,
  ProviderEventsOutcome,
  ConnectionsToSync,
  ConnectProviderInput,
  ProviderConnection,
  StatusTarget,
];
