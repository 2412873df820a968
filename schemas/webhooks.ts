import type { FromSchema } from 'json-schema-to-ts';
import { ALL_EVENTS, EVENT_NAMES } from '../domain/shared/event-catalogue.js';
import { pageOf, pageParams } from './common.js';

const ENVIRONMENT = {
  type: 'string',
  enum: ['sandbox', 'production'],
  description: 'Events of this environment only: `sandbox` (sk_test_ keys) or `production` (sk_live_ keys).',
} as const;

const endpointId = { type: 'string', format: 'uuid', description: 'Id of the webhook endpoint.' } as const;

/** Writable fields of an endpoint; the domain checks what a schema cannot (SSRF guard, reserved headers). */
const endpointFields = {
  url: {
    type: 'string',
    minLength: 1,
    maxLength: 2000,
    description:
      'Where events are POSTed: an https URL with a public address (http and private addresses only where ALLOW_PRIVATE_URLS is set).',
  },
  events: {
    type: 'array',
    minItems: 1,
    maxItems: 50,
    uniqueItems: true,
    items: { type: 'string', enum: [...EVENT_NAMES, ALL_EVENTS], description: 'An event name, or `*` for all.' },
    description: 'Events to receive (the catalogue of event names), or `["*"]` for every event.',
  },
  environment: ENVIRONMENT,
  description: { type: ['string', 'null'], maxLength: 500, description: 'A note to recognise the endpoint by.' },
  headers: {
    type: ['object', 'null'],
    maxProperties: 10,
    propertyNames: { pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$" },
    additionalProperties: {
      type: 'string',
      maxLength: 1000,
      pattern: '^[\\t\\x20-\\x7e]*$',
      description: 'Header value: printable ASCII (no line breaks).',
    },
    description:
      'Custom headers sent with every delivery (at most 10), stored encrypted. Content-Type, Host, User-Agent and the X-Service-* headers are reserved. null removes them.',
  },
  timeout_seconds: {
    type: 'integer',
    minimum: 1,
    maximum: 15,
    description: 'How long a delivery waits for the answer before it counts as failed (1 to 15 s, default 15).',
  },
  retry_count: {
    type: ['integer', 'null'],
    minimum: 0,
    maximum: 20,
    description:
      "Retries after a failed first attempt, capped by the service's schedule (default and null: the whole schedule, 7 retries).",
  },
} as const;

export const CreateWebhookEndpointInput = {
  $id: 'CreateWebhookEndpointInput',
  type: 'object',
  description: 'A new webhook endpoint. Its signing secret is generated and returned this once.',
  additionalProperties: false,
  required: ['url', 'events', 'environment'],
  properties: endpointFields,
} as const;
export type CreateWebhookEndpointInput = FromSchema<typeof CreateWebhookEndpointInput>;

export const UpdateWebhookEndpointInput = {
  $id: 'UpdateWebhookEndpointInput',
  type: 'object',
  description: 'The fields to change (at least one); fields left out keep their value, null clears an optional one.',
  additionalProperties: false,
  required: ['id'],
  properties: {
    id: endpointId,
    ...endpointFields,
    is_active: {
      type: 'boolean',
      description: 'false pauses deliveries; true resumes them (and re-enables an endpoint the service disabled).',
    },
  },
} as const;
export type UpdateWebhookEndpointInput = FromSchema<typeof UpdateWebhookEndpointInput>;

export const WebhookEndpointIdInput = {
  $id: 'WebhookEndpointIdInput',
  type: 'object',
  description: 'One webhook endpoint by id.',
  additionalProperties: false,
  required: ['id'],
  properties: { id: endpointId },
} as const;
export type WebhookEndpointIdInput = FromSchema<typeof WebhookEndpointIdInput>;

export const ListWebhookEndpointsInput = {
  $id: 'ListWebhookEndpointsInput',
  type: 'object',
  description: 'Filters and page of your webhook endpoints.',
  additionalProperties: false,
  properties: { environment: ENVIRONMENT, ...pageParams() },
} as const;
export type ListWebhookEndpointsInput = FromSchema<typeof ListWebhookEndpointsInput>;

const nullableTime = (description: string) => ({ type: ['string', 'null'], format: 'date-time', description }) as const;

const ENDPOINT_PROPERTIES = {
  id: endpointId,
  url: { type: 'string', description: 'Where events are POSTed.' },
  description: { type: ['string', 'null'], description: 'The note given.' },
  events: { type: 'array', items: { type: 'string', description: 'An event name.' }, description: 'Events received.' },
  is_active: { type: 'boolean', description: 'false: paused by you or disabled by the service (see disabled_reason).' },
  environment: ENVIRONMENT,
  secret_last4: { type: 'string', description: 'Last 4 characters of the signing secret, to recognise it.' },
  headers: {
    type: 'array',
    items: { type: 'string', description: 'A header name.' },
    description: 'Names of the custom headers sent (their values are stored encrypted and never shown).',
  },
  timeout_seconds: { type: 'integer', description: 'Seconds a delivery waits for the answer.' },
  retry_count: {
    type: ['integer', 'null'],
    description: "Retries after a failed first attempt; null: the schedule's.",
  },
  failure_count: { type: 'integer', description: 'Failed attempts since the last success.' },
  disabled_at: nullableTime('When the service disabled the endpoint (410, or failing for 3 days).'),
  disabled_reason: { type: ['string', 'null'], description: 'Why the service disabled it.' },
  last_triggered_at: nullableTime('Last attempt.'),
  last_success_at: nullableTime('Last successful attempt.'),
  last_failure_at: nullableTime('Last failed attempt.'),
  created_at: { type: 'string', format: 'date-time', description: 'Creation time.' },
  updated_at: { type: 'string', format: 'date-time', description: 'Last change.' },
} as const;
const ENDPOINT_REQUIRED = Object.keys(ENDPOINT_PROPERTIES) as (keyof typeof ENDPOINT_PROPERTIES)[];

export const WebhookEndpoint = {
  $id: 'WebhookEndpoint',
  type: 'object',
  description: 'A webhook endpoint. The signing secret is shown only at creation and regeneration.',
  additionalProperties: false,
  required: ENDPOINT_REQUIRED,
  properties: ENDPOINT_PROPERTIES,
} as const;

export const CreatedWebhookEndpoint = {
  $id: 'CreatedWebhookEndpoint',
  type: 'object',
  description: 'A webhook endpoint with its signing secret, shown this once.',
  additionalProperties: false,
  required: [...ENDPOINT_REQUIRED, 'secret'],
  properties: {
    ...ENDPOINT_PROPERTIES,
    secret: {
      type: 'string',
      pattern: '^whsec_[A-Za-z0-9]{32}$',
      description: 'The signing secret (`whsec_` + 32 characters). Store it now: it is never shown again.',
    },
  },
} as const;

export const WebhookEndpointPage = pageOf(
  'WebhookEndpointPage',
  'WebhookEndpoint',
  'A page of your webhook endpoints.',
);

export const WebhookEndpointDeleted = {
  $id: 'WebhookEndpointDeleted',
  type: 'object',
  description: 'The endpoint is deleted: nothing more is delivered to it.',
  additionalProperties: false,
  required: ['message', 'id'],
  properties: {
    message: { type: 'string', description: 'What happened.' },
    id: endpointId,
  },
} as const;

export const WebhookTestResult = {
  $id: 'WebhookTestResult',
  type: 'object',
  description: 'The outcome of one real, signed test delivery (event `webhook.test`).',
  additionalProperties: false,
  required: ['success', 'status_code', 'response_time_ms', 'error', 'delivery_id'],
  properties: {
    success: { type: 'boolean', description: 'The endpoint answered 2xx within its timeout.' },
    status_code: { type: ['integer', 'null'], description: 'HTTP status answered; null when no answer came.' },
    response_time_ms: { type: 'integer', description: 'Time to the answer (or the failure), in milliseconds.' },
    error: { type: ['string', 'null'], description: 'Why it failed, when it did.' },
    delivery_id: { type: 'string', format: 'uuid', description: 'The X-Service-Delivery header sent.' },
  },
} as const;
export type WebhookTestResult = FromSchema<typeof WebhookTestResult>;

export const webhookSchemas = [
  CreateWebhookEndpointInput,
  UpdateWebhookEndpointInput,
  WebhookEndpointIdInput,
  ListWebhookEndpointsInput,
  WebhookEndpoint,
  CreatedWebhookEndpoint,
  WebhookEndpointPage,
  WebhookEndpointDeleted,
  WebhookTestResult,
];
