import type { FromSchema } from 'json-schema-to-ts';
import { tenantRowsBatch } from './common.js';

/** The worker's side of webhooks: fan-out, one attempt, its record, and the owner's notice. */

export const DispatchEventsInput = tenantRowsBatch(
  'DispatchEventsInput',
  'events',
  'Outbox events to fan out to their webhook endpoints, each with its tenant.',
  'Id of the outbox event.',
);
export type DispatchEventsInput = FromSchema<typeof DispatchEventsInput>;

const dispatchedEvent = {
  type: 'object',
  description: 'The outcome of dispatching an outbox event.',
  additionalProperties: false,
  required: ['event_id', 'dispatched_at', 'deliveries'],
  properties: {
    event_id: { type: 'string', format: 'uuid', description: 'Id of the outbox event.' },
    dispatched_at: {
      type: ['string', 'null'],
      format: 'date-time',
      description: 'When it was (first) dispatched; null when there is no such event of that tenant.',
    },
    deliveries: { type: 'integer', description: 'Webhook deliveries queued by this dispatch.' },
  },
} as const;
export type DispatchedEvent = FromSchema<typeof dispatchedEvent>;

export const DispatchedEvents = {
  $id: 'DispatchedEvents',
  type: 'object',
  description: 'The outcome of dispatching each event of a batch, in order.',
  additionalProperties: false,
  required: ['events'],
  properties: { events: { type: 'array', items: dispatchedEvent, description: 'One per event asked for.' } },
} as const;

const deliveryId = { type: 'string', format: 'uuid', description: 'Id of the delivery (X-Service-Delivery).' } as const;
const attempt = { type: 'integer', minimum: 1, description: 'Attempt number, from 1.' } as const;

export const PrepareWebhookDeliveryInput = {
  $id: 'PrepareWebhookDeliveryInput',
  type: 'object',
  description: 'The delivery attempt a worker is about to make.',
  additionalProperties: false,
  required: ['delivery_id', 'attempt'],
  properties: { delivery_id: deliveryId, attempt },
} as const;
export type PrepareWebhookDeliveryInput = FromSchema<typeof PrepareWebhookDeliveryInput>;

const tenantId = { type: 'string', format: 'uuid', description: "The delivery's tenant (the job's)." } as const;

export const PrepareWebhookDeliveriesInput = {
  $id: 'PrepareWebhookDeliveriesInput',
  type: 'object',
  description: 'A batch of delivery attempts a worker is about to make, each with its tenant (of any tenants).',
  additionalProperties: false,
  required: ['deliveries'],
  properties: {
    deliveries: {
      type: 'array',
      minItems: 1,
      maxItems: 100,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['delivery_id', 'attempt', 'tenant_id'],
        properties: { delivery_id: deliveryId, attempt, tenant_id: tenantId },
      },
      description: 'One per job of the batch.',
    },
  },
} as const;
export type PrepareWebhookDeliveriesInput = FromSchema<typeof PrepareWebhookDeliveriesInput>;

export const WebhookRequest = {
  $id: 'WebhookRequest',
  type: 'object',
  description: 'A signed webhook request, ready to send.',
  additionalProperties: false,
  required: ['url', 'headers', 'body', 'timeout_ms'],
  properties: {
    url: { type: 'string', description: 'URL to POST to.' },
    headers: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: 'Headers, the signature included.',
    },
    body: { type: 'string', description: 'The exact JSON body that was signed.' },
    timeout_ms: { type: 'integer', description: 'Deadline of the whole call.' },
  },
} as const;
export type WebhookRequest = FromSchema<typeof WebhookRequest>;

export const PreparedWebhookDelivery = {
  $id: 'PreparedWebhookDelivery',
  type: 'object',
  description: 'Whether to send, and the signed request when so.',
  additionalProperties: false,
  required: ['send'],
  properties: {
    send: { type: 'boolean', description: 'false: nothing to do (delivered, cancelled, or this attempt recorded).' },
    reason: { type: 'string', description: 'Why nothing is sent.' },
    request: { $ref: 'WebhookRequest', description: 'The request to make.' },
  },
} as const;
export type PreparedWebhookDelivery = FromSchema<
  typeof PreparedWebhookDelivery,
  { references: [typeof WebhookRequest] }
>;

export const PreparedWebhookDeliveries = {
  $id: 'PreparedWebhookDeliveries',
  type: 'object',
  description: 'Each attempt of a batch: whether to send it, and its signed request, in order.',
  additionalProperties: false,
  required: ['deliveries'],
  properties: {
    deliveries: { type: 'array', items: { $ref: 'PreparedWebhookDelivery' }, description: 'One per attempt.' },
  },
} as const;

/** What one attempt gave, as the sender measured it. */
const outcomeProperties = {
  url: { type: 'string', description: 'URL called.' },
  attempted_at: { type: 'string', format: 'date-time', description: 'When the attempt started.' },
  success: { type: 'boolean', description: 'A 2xx answer within the timeout.' },
  status_code: { type: ['integer', 'null'], description: 'HTTP status answered, if any.' },
  response_time_ms: { type: 'integer', minimum: 0, description: 'Duration of the call.' },
  response_body: { type: ['string', 'null'], description: 'Excerpt of the answer body.' },
  error: { type: ['string', 'null'], description: 'Why it failed.' },
} as const;
const outcomeRequired = Object.keys(outcomeProperties) as (keyof typeof outcomeProperties)[];

export const RecordWebhookAttemptInput = {
  $id: 'RecordWebhookAttemptInput',
  type: 'object',
  description: 'One delivery attempt to record, and what follows from it.',
  additionalProperties: false,
  required: ['delivery_id', 'attempt', ...outcomeRequired],
  properties: { delivery_id: deliveryId, attempt, ...outcomeProperties },
} as const;
export type RecordWebhookAttemptInput = FromSchema<typeof RecordWebhookAttemptInput>;

export const RecordWebhookAttemptsInput = {
  $id: 'RecordWebhookAttemptsInput',
  type: 'object',
  description: 'A batch of delivery attempts to record, in order, each with its tenant (of any tenants).',
  additionalProperties: false,
  required: ['attempts'],
  properties: {
    attempts: {
      type: 'array',
      minItems: 1,
      maxItems: 100,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['delivery_id', 'attempt', 'tenant_id', ...outcomeRequired],
        properties: { delivery_id: deliveryId, attempt, tenant_id: tenantId, ...outcomeProperties },
      },
      description: 'One per job of the batch.',
    },
  },
} as const;

export type RecordWebhookAttemptsInput = FromSchema<typeof RecordWebhookAttemptsInput>;

export const RecordedWebhookAttempts = {
  $id: 'RecordedWebhookAttempts',
  type: 'object',
  description: 'What each attempt of a batch led to, in order.',
  additionalProperties: false,
  required: ['attempts'],
  properties: {
    attempts: { type: 'array', items: { $ref: 'RecordedWebhookAttempt' }, description: 'One per attempt.' },
  },
} as const;

export const RecordedWebhookAttempt = {
  $id: 'RecordedWebhookAttempt',
  type: 'object',
  description: 'The delivery after the attempt.',
  additionalProperties: false,
  required: ['recorded', 'status', 'next_attempt_at'],
  properties: {
    recorded: { type: 'boolean', description: 'false: this attempt was already recorded (a job run twice).' },
    status: { type: 'string', description: 'Delivery status: pending, succeeded, failed or cancelled.' },
    next_attempt_at: { type: ['string', 'null'], format: 'date-time', description: 'When the next attempt is due.' },
  },
} as const;
export type RecordedWebhookAttempt = FromSchema<typeof RecordedWebhookAttempt>;

export const RecordWebhookTestInput = {
  $id: 'RecordWebhookTestInput',
  type: 'object',
  description: 'A test call to log.',
  additionalProperties: false,
  required: ['endpoint_id', ...outcomeRequired],
  properties: {
    endpoint_id: { type: 'string', format: 'uuid', description: 'The endpoint tested.' },
    ...outcomeProperties,
  },
} as const;
export type RecordWebhookTestInput = FromSchema<typeof RecordWebhookTestInput>;

export const PreparedWebhookTest = {
  $id: 'PreparedWebhookTest',
  type: 'object',
  description: 'A signed test request for an endpoint.',
  additionalProperties: false,
  required: ['delivery_id', 'request'],
  properties: {
    delivery_id: deliveryId,
    request: { $ref: 'WebhookRequest', description: 'The request to make.' },
  },
} as const;

export const WebhookDisabledNoticeInput = {
  $id: 'WebhookDisabledNoticeInput',
  type: 'object',
  description: 'The endpoint the service disabled.',
  additionalProperties: false,
  required: ['endpoint_id'],
  properties: { endpoint_id: { type: 'string', format: 'uuid', description: 'Id of the endpoint.' } },
} as const;
export type WebhookDisabledNoticeInput = FromSchema<typeof WebhookDisabledNoticeInput>;

export const WebhookDisabledNotice = {
  $id: 'WebhookDisabledNotice',
  type: 'object',
  description: "What the owner's technical e-mail says; `to` is null when the owner has no address.",
  additionalProperties: false,
  required: ['to', 'url', 'reason', 'disabled_at', 'endpoint_id'],
  properties: {
    to: { type: ['string', 'null'], description: 'Technical e-mail of the owner.' },
    url: { type: 'string', description: 'URL of the endpoint.' },
    reason: { type: 'string', description: 'Why it was disabled.' },
    disabled_at: { type: 'string', format: 'date-time', description: 'When.' },
    endpoint_id: { type: 'string', format: 'uuid', description: 'Id of the endpoint.' },
  },
} as const;
export type WebhookDisabledNotice = FromSchema<typeof WebhookDisabledNotice>;

export const TenantWebhookSecret = {
  $id: 'TenantWebhookSecret',
  type: 'object',
  description: "The tenant's new webhook signing secret, shown this once; the previous one stopped working.",
  additionalProperties: false,
  required: ['webhook_url', 'webhook_secret'],
  properties: {
    webhook_url: { type: 'string', description: 'The webhook URL the secret signs for.' },
    webhook_secret: {
      type: 'string',
      pattern: '^whsec_[A-Za-z0-9]{32}$',
      description: 'The signing secret (`whsec_` + 32 characters). Store it now: it is never shown again.',
    },
  },
} as const;

export const webhookDeliverySchemas = [
  DispatchEventsInput,
  DispatchedEvents,
  PrepareWebhookDeliveryInput,
  PrepareWebhookDeliveriesInput,
  WebhookRequest,
  PreparedWebhookDelivery,
  PreparedWebhookDeliveries,
  RecordWebhookAttemptInput,
  RecordWebhookAttemptsInput,
  RecordedWebhookAttempt,
  RecordedWebhookAttempts,
  RecordWebhookTestInput,
  PreparedWebhookTest,
  WebhookDisabledNoticeInput,
  WebhookDisabledNotice,
  TenantWebhookSecret,
];
