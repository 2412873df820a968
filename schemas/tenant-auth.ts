import type { FromSchema } from 'json-schema-to-ts';
import { TENANT_KEY_SCOPES } from '../domain/tenants/index.js';

const ENVIRONMENT = {
  type: 'string',
  enum: ['sandbox', 'production'],
  description: '`sandbox` or `production`.',
} as const;

export const RegisterTenantInput = {
  $id: 'RegisterTenantInput',
  type: 'object',
  description: "A platform tenant signing up through a partner's publishable key.",
  additionalProperties: false,
  required: ['publishable_key', 'name', 'email', 'password', 'siret'],
  properties: {
    publishable_key: {
      type: 'string',
      minLength: 1,
      maxLength: 100,
      description: "The partner's publishable key (pk_test_… or pk_live_…); its prefix sets the environment.",
    },
    name: { type: 'string', minLength: 1, maxLength: 255, description: 'Name of the new tenant.' },
    email: { type: 'string', format: 'email', maxLength: 255, description: 'Login e-mail of the new tenant.' },
    password: { type: 'string', minLength: 10, maxLength: 200, description: 'At least 10 characters.' },
    siret: { type: 'string', pattern: '^[0-9]{14}$', description: 'SIRET: 14 digits, Luhn-valid.' },
  },
} as const;
export type RegisterTenantInput = FromSchema<typeof RegisterTenantInput>;

export const TenantCredentials = {
  $id: 'TenantCredentials',
  type: 'object',
  description: 'The new tenant and its secret key for the environment of the publishable key.',
  additionalProperties: false,
  required: ['tenant_id', 'api_key', 'environment'],
  properties: {
    tenant_id: { type: 'string', format: 'uuid', description: 'Id of the new tenant.' },
    api_key: { type: 'string', description: 'Secret key (sk_test_… or sk_live_…), shown this once.' },
    environment: ENVIRONMENT,
  },
} as const;
export type TenantCredentials = FromSchema<typeof TenantCredentials>;

export const LoginTenantInput = {
  $id: 'LoginTenantInput',
  type: 'object',
  description: 'A tenant signing in with its e-mail and password.',
  additionalProperties: false,
  required: ['email', 'password'],
  properties: {
    email: { type: 'string', minLength: 1, maxLength: 255, description: 'Login e-mail.' },
    password: { type: 'string', minLength: 1, maxLength: 200, description: 'Password.' },
    environment: { ...ENVIRONMENT, default: 'sandbox', description: 'Environment of the token (default sandbox).' },
  },
} as const;
export type LoginTenantInput = FromSchema<typeof LoginTenantInput>;

export const TenantToken = {
  $id: 'TenantToken',
  type: 'object',
  description: 'A tenant token: send it as `Authorization: Bearer <token>` on tenant routes.',
  additionalProperties: false,
  required: ['token', 'tenant_id', 'expires_at', 'environment'],
  properties: {
    token: { type: 'string', description: 'The token (at_…), valid 24 hours or until logout.' },
    tenant_id: { type: 'string', format: 'uuid', description: 'Id of the tenant.' },
    expires_at: { type: 'string', format: 'date-time', description: 'When the token stops working.' },
    environment: ENVIRONMENT,
  },
} as const;
export type TenantToken = FromSchema<typeof TenantToken>;

export const TenantLogoutResult = {
  $id: 'TenantLogoutResult',
  type: 'object',
  description: 'The end of a tenant session.',
  additionalProperties: false,
  required: ['message'],
  properties: { message: { type: 'string', description: 'What happened.' } },
} as const;
export type TenantLogoutResult = FromSchema<typeof TenantLogoutResult>;

export const TenantAccount = {
  $id: 'TenantAccount',
  type: 'object',
  description: 'The signed-in tenant.',
  additionalProperties: false,
  required: ['id', 'name', 'email', 'siret', 'kyb_status', 'environment', 'created_at'],
  properties: {
    id: { type: 'string', format: 'uuid', description: 'Id of the tenant.' },
    name: { type: 'string', description: 'Name.' },
    email: { type: ['string', 'null'], description: 'Login e-mail.' },
    siret: { type: ['string', 'null'], description: 'SIRET.' },
    kyb_status: {
      type: 'string',
      enum: ['pending', 'documents_submitted', 'under_review', 'verified', 'rejected'],
      description: 'KYB status; production needs `verified`.',
    },
    environment: ENVIRONMENT,
    created_at: { type: 'string', format: 'date-time', description: 'Creation time.' },
  },
} as const;
export type TenantAccount = FromSchema<typeof TenantAccount>;

export const TenantKey = {
  $id: 'TenantKey',
  type: 'object',
  description: "One of the tenant's keys (never the key itself).",
  additionalProperties: false,
  required: [
    'id',
    'type',
    'prefix',
    'last_four',
    'environment',
    'scopes',
    'sub_tenant_id',
    'status',
    'created_at',
    'last_used_at',
  ],
  properties: {
    id: { type: 'string', format: 'uuid', description: 'Id of the key.' },
    type: { type: 'string', enum: ['secret', 'publishable'], description: '`secret` (sk_) or `publishable` (pk_).' },
    prefix: { type: 'string', description: 'First 12 characters of the key.' },
    last_four: { type: 'string', description: 'Last 4 characters of the key.' },
    environment: ENVIRONMENT,
    scopes: {
      type: 'array',
      items: { type: 'string', enum: TENANT_KEY_SCOPES },
      description: 'What the key may do (empty for a publishable key).',
    },
    sub_tenant_id: {
      type: ['string', 'null'],
      format: 'uuid',
      description: 'The sub-tenant the key acts for, or null for a key of the whole tenant.',
    },
    status: { type: 'string', enum: ['active', 'revoked', 'expired'], description: 'Whether the key works.' },
    created_at: { type: 'string', format: 'date-time', description: 'Creation time.' },
    last_used_at: { type: ['string', 'null'], format: 'date-time', description: 'Last authenticated request.' },
  },
} as const;
export type TenantKey = FromSchema<typeof TenantKey>;

export const TenantKeyList = {
  $id: 'TenantKeyList',
  type: 'object',
  description: "The tenant's keys of the caller's environment, newest first.",
  additionalProperties: false,
  required: ['data'],
  properties: { data: { type: 'array', items: { $ref: 'TenantKey' }, description: 'The keys.' } },
} as const;
export type TenantKeyList = FromSchema<typeof TenantKeyList, { references: [typeof TenantKey] }>;

export const CreateTenantKeyInput = {
  $id: 'CreateTenantKeyInput',
  type: 'object',
  description: "A new key in the caller's environment.",
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 255, description: 'A name to recognise the key by.' },
  },
} as const;
export type CreateTenantKeyInput = FromSchema<typeof CreateTenantKeyInput>;

export const CreateTenantSecretKeyInput = {
  $id: 'CreateTenantSecretKeyInput',
  type: 'object',
  description:
    "A new secret key in the caller's environment, with the scopes it may use (never more than the caller's).",
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 255, description: 'A name to recognise the key by.' },
    scopes: {
      type: 'array',
      minItems: 1,
      uniqueItems: true,
      items: { type: 'string', enum: TENANT_KEY_SCOPES },
      description:
        "What the key may do: invoices, signatures, fiscal:read (fiscal GET routes), fiscal:write (fiscal POST/PUT), fiscal:admin (the kill switch), keys:write (create and regenerate keys), profile:write (PUT /tenant/me), webhooks:read (webhook logs), webhooks:write (the webhook_url and its secret), sub_tenants:write (create, change, delete sub-tenants). Each must be held by the credential making the request (403 SCOPE_NOT_GRANTED); left out, exactly the caller's scopes.",
    },
  },
} as const;
export type CreateTenantSecretKeyInput = FromSchema<typeof CreateTenantSecretKeyInput>;

export const NewTenantKey = {
  $id: 'NewTenantKey',
  type: 'object',
  description: 'A new key, shown in full this once.',
  additionalProperties: false,
  required: ['id', 'key', 'type', 'created_at'],
  properties: {
    id: { type: 'string', format: 'uuid', description: 'Id of the key.' },
    key: { type: 'string', description: 'The full key. Store it now: it is never shown again.' },
    type: { type: 'string', enum: ['secret', 'publishable'], description: '`secret` or `publishable`.' },
    created_at: { type: 'string', format: 'date-time', description: 'Creation time.' },
  },
} as const;
export type NewTenantKey = FromSchema<typeof NewTenantKey>;

export const KeyRegeneration = {
  $id: 'KeyRegeneration',
  type: 'object',
  description: 'A new secret key replacing the one the request was made with.',
  additionalProperties: false,
  required: ['message', 'data', 'warning'],
  properties: {
    message: { type: 'string', description: 'What happened, and whether the old key was revoked.' },
    data: { $ref: 'NewTenantKey', description: 'The new secret key.' },
    warning: { type: 'string', description: 'The key is shown only once.' },
  },
} as const;
export type KeyRegeneration = FromSchema<typeof KeyRegeneration, { references: [typeof NewTenantKey] }>;

export const tenantAuthSchemas = [
  RegisterTenantInput,
  TenantCredentials,
  LoginTenantInput,
  TenantToken,
  TenantLogoutResult,
  TenantAccount,
  TenantKey,
  TenantKeyList,
  CreateTenantKeyInput,
  CreateTenantSecretKeyInput,
  NewTenantKey,
  KeyRegeneration,
];
