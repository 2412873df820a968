import type { FromSchema } from 'json-schema-to-ts';
import { pageOf, pageParams } from './common.js';

const ENVIRONMENT = {
  type: 'string',
  enum: ['sandbox', 'production'],
  description: '`sandbox` (sk_test_ key) or `production` (sk_live_ key).',
} as const;

const API_KEY_PROPERTIES = {
  id: { type: 'string', format: 'uuid', description: 'Id of the key.' },
  name: { type: 'string', description: 'Name given at creation.' },
  company_id: {
    type: ['string', 'null'],
    format: 'uuid',
    description: 'The company the key is restricted to; null: every company of the account.',
  },
  environment: ENVIRONMENT,
  scopes: {
    type: 'array',
    items: { type: 'string', enum: ['invoices', 'signatures'], description: 'A scope.' },
    description: 'What the key may do.',
  },
  expires_at: { type: ['string', 'null'], format: 'date-time', description: 'Expiry; null: never expires.' },
  status: {
    type: 'string',
    enum: ['active', 'revoked', 'expired'],
    description: '`expired`: an unrevoked key past `expires_at`; it is refused like a revoked key.',
  },
  key_prefix: { type: 'string', description: 'First 12 characters of the key (`sk_live_` + 4), to recognise it.' },
  last_four: { type: 'string', description: 'Last 4 characters of the key.' },
  last_used_at: { type: ['string', 'null'], format: 'date-time', description: 'Last authenticated request.' },
  last_used_ip: { type: ['string', 'null'], description: 'Source IP of the last authenticated request.' },
  revoked_at: { type: ['string', 'null'], format: 'date-time', description: 'When it was revoked.' },
  revoked_reason: { type: ['string', 'null'], description: 'Why it was revoked, as given.' },
  created_at: { type: 'string', format: 'date-time', description: 'Creation time.' },
} as const;

const API_KEY_REQUIRED = Object.keys(API_KEY_PROPERTIES) as (keyof typeof API_KEY_PROPERTIES)[];

export const ApiKey = {
  $id: 'ApiKey',
  type: 'object',
  description: "A user's API key. The key itself is shown only in the creation response; its hash never.",
  additionalProperties: false,
  required: API_KEY_REQUIRED,
  properties: API_KEY_PROPERTIES,
} as const;

export type ApiKey = FromSchema<typeof ApiKey>;

export const CreatedApiKey = {
  $id: 'CreatedApiKey',
  type: 'object',
  description: 'A new API key with the full key, shown this once.',
  additionalProperties: false,
  required: [...API_KEY_REQUIRED, 'key'],
  properties: {
    ...API_KEY_PROPERTIES,
    key: {
      type: 'string',
      description: 'The full key (sk_live_… or sk_test_…). Store it now: it is never shown again.',
    },
  },
} as const;

export const ApiKeyCreation = {
  $id: 'ApiKeyCreation',
  type: 'object',
  description: 'The answer to an API key creation.',
  additionalProperties: false,
  required: ['message', 'data', 'warning'],
  properties: {
    message: { type: 'string', description: 'What happened.' },
    data: { $ref: 'CreatedApiKey', description: 'The new key, with the full key.' },
    warning: { type: 'string', description: 'The key is shown only once.' },
  },
} as const;

export type ApiKeyCreation = FromSchema<typeof ApiKeyCreation, { references: [typeof CreatedApiKey] }>;

export const CreateApiKeyInput = {
  $id: 'CreateApiKeyInput',
  type: 'object',
  description: 'A new API key for the signed-in user.',
  additionalProperties: false,
  required: ['name', 'environment'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 255, description: 'A name to recognise the key by.' },
    environment: ENVIRONMENT,
    company_id: {
      type: 'string',
      format: 'uuid',
      description: 'Restrict the key to one of your companies; leave out for all of them.',
    },
    scopes: {
      type: 'array',
      items: { type: 'string', enum: ['invoices', 'signatures'], description: 'A scope.' },
      uniqueItems: true,
      minItems: 1,
      default: ['invoices', 'signatures'],
      description: 'What the key may do (default both).',
    },
    expires_at: {
      type: 'string',
      format: 'date-time',
      description: 'When the key stops working (must be in the future); leave out for no expiry.',
    },
  },
} as const;
export type CreateApiKeyInput = FromSchema<typeof CreateApiKeyInput>;

export const ListApiKeysInput = {
  $id: 'ListApiKeysInput',
  type: 'object',
  description: "Filters and page of the user's API keys.",
  additionalProperties: false,
  properties: {
    company_id: { type: 'string', format: 'uuid', description: 'Only keys restricted to this company.' },
    environment: ENVIRONMENT,
    status: {
      type: 'string',
      enum: ['active', 'revoked', 'expired'],
      description: 'Only keys in this status.',
    },
    ...pageParams(),
  },
} as const;
export type ListApiKeysInput = FromSchema<typeof ListApiKeysInput>;

export const ApiKeyPage = pageOf('ApiKeyPage', 'ApiKey', "A page of the user's API keys, newest first.");

export const GetApiKeyInput = {
  $id: 'GetApiKeyInput',
  type: 'object',
  description: 'One API key by id.',
  additionalProperties: false,
  required: ['id'],
  properties: { id: { type: 'string', format: 'uuid', description: 'Id of the key.' } },
} as const;
export type GetApiKeyInput = FromSchema<typeof GetApiKeyInput>;

export const RevokeApiKeyInput = {
  $id: 'RevokeApiKeyInput',
  type: 'object',
  description: 'The key to revoke, at once and for good.',
  additionalProperties: false,
  required: ['id'],
  properties: {
    id: { type: 'string', format: 'uuid', description: 'Id of the key.' },
    reason: { type: 'string', minLength: 1, maxLength: 500, description: 'Why (kept with the key), in the query.' },
  },
} as const;
export type RevokeApiKeyInput = FromSchema<typeof RevokeApiKeyInput>;

export const ApiKeyRevocation = {
  $id: 'ApiKeyRevocation',
  type: 'object',
  description: 'The revoked key.',
  additionalProperties: false,
  required: ['message', 'data'],
  properties: {
    message: { type: 'string', description: 'What happened (or that the key was already revoked).' },
    data: { $ref: 'ApiKey', description: 'The key, now revoked.' },
  },
} as const;

export type ApiKeyRevocation = FromSchema<typeof ApiKeyRevocation, { references: [typeof ApiKey] }>;

export const apiKeySchemas = [
  ApiKey,
  CreatedApiKey,
  ApiKeyCreation,
  CreateApiKeyInput,
  ListApiKeysInput,
  ApiKeyPage,
  GetApiKeyInput,
  RevokeApiKeyInput,
  ApiKeyRevocation,
];
