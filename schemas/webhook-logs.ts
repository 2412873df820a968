import type { FromSchema } from 'json-schema-to-ts';
import { pageOf, pageParams } from './common.js';

/** The delivery attempts of webhook endpoints (GET /v1/webhooks/{id}/logs, GET /v1/tenant/webhook-logs). */

const nullableTime = (description: string) => ({ type: ['string', 'null'], format: 'date-time', description }) as const;
const endpointId = { type: 'string', format: 'uuid', description: 'Id of the webhook endpoint.' } as const;

export const ListWebhookLogsInput = {
  $id: 'ListWebhookLogsInput',
  type: 'object',
  description: "Filters and page of an endpoint's delivery attempts, newest first.",
  additionalProperties: false,
  required: ['id'],
  properties: {
    id: endpointId,
    success: { type: 'boolean', description: 'Only successful (true) or failed (false) attempts.' },
    delivery_id: { type: 'string', format: 'uuid', description: 'Only the attempts of this delivery.' },
    ...pageParams(),
  },
} as const;
export type ListWebhookLogsInput = FromSchema<typeof ListWebhookLogsInput>;

export const ListTenantWebhookLogsInput = {
  $id: 'ListTenantWebhookLogsInput',
  type: 'object',
  description: "Filters and page of the delivery attempts to the tenant's webhook_url, newest first.",
  additionalProperties: false,
  properties: {
    success: ListWebhookLogsInput.properties.success,
    delivery_id: ListWebhookLogsInput.properties.delivery_id,
    ...pageParams(),
  },
} as const;
export type ListTenantWebhookLogsInput = FromSchema<typeof ListTenantWebhookLogsInput>;

export const WebhookLog = {
  $id: 'WebhookLog',
  type: 'object',
  description: 'One delivery attempt, as it happened.',
  additionalProperties: false,
  required: [
    'id',
    'delivery_id',
    'event_id',
    'event',
    'attempt',
    'test',
    'url',
    'success',
    'response_status',
    'response_time_ms',
    'response_body',
    'error_message',
    'next_retry_at',
    'created_at',
  ],
  properties: {
    id: { type: 'string', format: 'uuid', description: 'Id of the attempt.' },
    delivery_id: {
      type: ['string', 'null'],
      format: 'uuid',
      description: 'The X-Service-Delivery header: the same on every attempt of one event. null for test calls.',
    },
    event_id: { type: ['string', 'null'], format: 'uuid', description: 'The event delivered (the body `id`).' },
    event: { type: 'string', description: 'Event name (X-Service-Event).' },
    attempt: { type: 'integer', description: 'Attempt number (X-Service-Delivery-Attempt), from 1.' },
    test: { type: 'boolean', description: 'A test call (POST /v1/webhooks/{id}/test).' },
    url: { type: 'string', description: 'URL called.' },
    success: { type: 'boolean', description: 'A 2xx answer within the timeout.' },
    response_status: { type: ['integer', 'null'], description: 'HTTP status answered; null when no answer came.' },
    response_time_ms: { type: 'integer', description: 'Time to the answer (or the failure), in milliseconds.' },
    response_body: { type: ['string', 'null'], description: 'The first 1,024 bytes of the answer body.' },
    error_message: { type: ['string', 'null'], description: 'Why the attempt failed.' },
    next_retry_at: nullableTime('When the next attempt is due; null when this one was the last.'),
    created_at: { type: 'string', format: 'date-time', description: 'When the attempt was made.' },
  },
} as const;
export type WebhookLog = FromSchema<typeof WebhookLog>;

export const WebhookLogPage = pageOf('WebhookLogPage', 'WebhookLog', "A page of an endpoint's attempts, newest first.");

export const webhookLogSchemas = [ListWebhookLogsInput, ListTenantWebhookLogsInput, WebhookLog, WebhookLogPage];
