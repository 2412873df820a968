import type { FromSchema } from 'json-schema-to-ts';

export const DispatchEventInput = {
  $id: 'DispatchEventInput',
  type: 'object',
  description: 'An outbox event to fan out to its webhook endpoints.',
  additionalProperties: false,
  required: ['event_id'],
  properties: { event_id: { type: 'string', format: 'uuid', description: 'Id of the outbox event.' } },
} as const;
export type DispatchEventInput = FromSchema<typeof DispatchEventInput>;

export const DispatchedEvent = {
  $id: 'DispatchedEvent',
  type: 'object',
  description: 'The outcome of dispatching an outbox event.',
  additionalProperties: false,
  required: ['event_id', 'dispatched_at', 'deliveries'],
  properties: {
    event_id: { type: 'string', format: 'uuid', description: 'Id of the outbox event.' },
    dispatched_at: { type: 'string', format: 'date-time', description: 'When it was (first) dispatched.' },
    deliveries: { type: 'integer', description: 'Webhook deliveries queued by this dispatch.' },
  },
} as const;
export type DispatchedEvent = FromSchema<typeof DispatchedEvent>;

export const webhookSchemas = [DispatchEventInput, DispatchedEvent];
