import type { FromSchema } from 'json-schema-to-ts';

export const HealthStatus = {
  $id: 'HealthStatus',
  type: 'object',
  description: 'Liveness of the service and its database.',
  required: ['status', 'timestamp'],
  additionalProperties: false,
  properties: {
    status: { type: 'string', enum: ['ok', 'unavailable'], description: '`ok` when the database answers.' },
    timestamp: { type: 'string', format: 'date-time', description: 'Server time, ISO 8601 UTC.' },
  },
} as const;
export type HealthStatus = FromSchema<typeof HealthStatus>;

export const Pricing = {
  $id: 'Pricing',
  type: 'object',
  description: 'Production unit prices, excluding VAT. Sandbox is free; incoming invoices are free.',
  required: ['invoice_price', 'signature_price', 'credit_note_price', 'currency'],
  additionalProperties: false,
  properties: {
    invoice_price: { type: 'number', description: 'Price of one electronic invoice.' },
    signature_price: { type: 'number', description: 'Price of one signature request, whatever the number of signers.' },
    credit_note_price: { type: 'number', description: 'Price of one credit note.' },
    currency: { type: 'string', description: 'ISO 4217 currency of the prices.' },
  },
} as const;
export type Pricing = FromSchema<typeof Pricing>;

export const OpenApiDocument = {
  $id: 'OpenApiDocument',
  type: 'object',
  description: 'An OpenAPI 3.1 document.',
  required: ['openapi', 'info', 'paths'],
  additionalProperties: true,
  properties: {
    openapi: { type: 'string', description: 'OpenAPI version (3.1.0).' },
    info: { type: 'object', description: 'Title and version of the API.' },
    paths: { type: 'object', description: 'Every route of the API.' },
  },
} as const;
export const platformSchemas = [HealthStatus, Pricing, OpenApiDocument];
