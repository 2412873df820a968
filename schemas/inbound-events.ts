import type { FromSchema } from 'json-schema-to-ts';

/** Provider callbacks (spec "Inbound provider webhooks"): the signed raw body, processed once. */

export const InboundCallbackInput = {
  $id: 'InboundCallbackInput',
  type: 'object',
  description:
    'A provider callback as received: the exact body bytes (before any JSON parsing) and the signature header.',
  additionalProperties: false,
  required: ['raw_body'],
  properties: {
    raw_body: { type: 'string', contentEncoding: 'base64', description: 'The request body, byte for byte, in base64.' },
    signature: {
      type: 'string',
      maxLength: 1000,
      description: 'The signature header: `sha256=<hex>`, `t=<unix seconds>,v1=<hex>` or bare hex.',
    },
  },
} as const;
export type InboundCallbackInput = FromSchema<typeof InboundCallbackInput>;

export const InboundEventInput = {
  $id: 'InboundEventInput',
  type: 'object',
  description: 'A verified provider event, to process once.',
  additionalProperties: false,
  required: ['provider', 'event_id', 'payload_sha256'],
  properties: {
    provider: { type: 'string', minLength: 1, maxLength: 50, description: 'Who sent it (`superpdp`, `openapi`).' },
    event_id: { type: 'string', minLength: 1, maxLength: 255, description: "The provider's id of the event." },
    event_type: { type: ['string', 'null'], maxLength: 255, description: "The provider's type of the event." },
    payload_sha256: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of the raw body.' },
  },
} as const;
export type InboundEventInput = FromSchema<typeof InboundEventInput>;

export const InboundEventOutcome = {
  $id: 'InboundEventOutcome',
  type: 'object',
  description: 'Processed now, or already processed before (a duplicate delivery, answered 200 all the same).',
  additionalProperties: false,
  required: ['status', 'provider', 'event_id'],
  properties: {
    status: { type: 'string', enum: ['processed', 'already_processed'], description: 'What happened.' },
    provider: { type: 'string', description: 'Who sent it.' },
    event_id: { type: 'string', description: "The provider's id of the event." },
  },
} as const;
export type InboundEventOutcome = FromSchema<typeof InboundEventOutcome>;

export const inboundEventSchemas = [InboundCallbackInput, InboundEventInput, InboundEventOutcome];
