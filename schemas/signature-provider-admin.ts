import type { FromSchema } from 'json-schema-to-ts';

/**
 * The admin routes of the signature provider (`/v1/admin/openapi/*`): the operator's Openapi account,
 * its verification, its wallet and its tokens. Secrets go in and never come out: the API key is
 * never answered, a token only once, when it is made.
 */

const time = (description: string) => ({ type: 'string', format: 'date-time', description }) as const;
const nullableTime = (description: string) => ({ type: ['string', 'null'], format: 'date-time', description }) as const;

const scope = {
  type: 'string',
  minLength: 3,
  maxLength: 300,
  pattern: '^[A-Za-z*]+:\\S+$',
  description: 'An Openapi scope, `METHOD:host/path` (`POST:esignature.openapi.com/EU-SES`).',
} as const;
const scopeList = (description: string) => ({ type: 'array', items: scope, description }) as const;

const tokenId = {
  type: 'string',
  minLength: 1,
  maxLength: 64,
  description:
    'Id of the token: `tok_` and the first 24 hex characters of its SHA-256. Never the token itself, which must stay out of URLs and logs.',
} as const;

const VERIFICATION_PROPERTIES = {
  ok: {
    type: 'boolean',
    description:
      "true: Openapi knows the account's e-mail and API key and the service's token holds every required scope.",
  },
  missing_scopes: scopeList(
    'Required scopes the token lacks: signature requests cannot be made until they are granted.',
  ),
  optional_missing_scopes: scopeList(
    'Optional scopes the token lacks (deleting requests at the provider): without them cancelled and expired requests stay there until Openapi purges them.',
  ),
  message: {
    type: ['string', 'null'],
    description: "Why the check failed, with the provider's message; null when it passed.",
  },
  checked_at: time('When the check ran.'),
} as const;
const VERIFICATION_REQUIRED = ['ok', 'missing_scopes', 'optional_missing_scopes', 'message', 'checked_at'] as const;

export const OpenapiVerification = {
  $id: 'OpenapiVerification',
  type: 'object',
  description: "The outcome of checking the configured account against Openapi's OAuth host.",
  additionalProperties: false,
  required: VERIFICATION_REQUIRED,
  properties: VERIFICATION_PROPERTIES,
} as const;
export type OpenapiVerification = FromSchema<typeof OpenapiVerification>;

export const OpenapiConfig = {
  $id: 'OpenapiConfig',
  type: 'object',
  description:
    "The signature provider's configuration as an admin sees it: the account, the service's token by its last characters, the last verification. The API key and the token are never shown.",
  additionalProperties: false,
  required: ['configured', 'account_email', 'test_mode', 'token', 'verified_at', 'verification', 'updated_at'],
  properties: {
    configured: { type: 'boolean', description: 'false until an admin saves an account.' },
    account_email: { type: ['string', 'null'], description: "The Openapi account's e-mail." },
    test_mode: {
      type: 'boolean',
      description: "true: the provider's test hosts (test.esignature.openapi.com, sandbox credit) are used.",
    },
    token: {
      type: ['object', 'null'],
      description: 'The bearer token the service signs requests with; null until one is given or minted.',
      additionalProperties: false,
      required: ['hint', 'expires_at', 'scopes'],
      properties: {
        hint: { type: 'string', description: 'Its last 4 characters, to recognise it.' },
        expires_at: nullableTime('When it expires (null: not known until a verification reads it).'),
        scopes: scopeList('Its scopes, as last read from Openapi.'),
      },
    },
    verified_at: nullableTime('When a verification last passed; null when the last one failed or none ran.'),
    verification: {
      type: ['object', 'null'],
      description: 'The last verification, passed or not.',
      additionalProperties: false,
      required: VERIFICATION_REQUIRED,
      properties: VERIFICATION_PROPERTIES,
    },
    updated_at: nullableTime('Last change.'),
  },
} as const;
export type OpenapiConfig = FromSchema<typeof OpenapiConfig>;

export const SaveOpenapiConfigInput = {
  $id: 'SaveOpenapiConfigInput',
  type: 'object',
  description:
    "The Openapi account the service signs with. The API key (and a token, if given) are stored encrypted. A new API key, e-mail or host drops the service's token unless one is given with it; the service mints another when it needs one.",
  additionalProperties: false,
  required: ['account_email', 'api_key'],
  properties: {
    account_email: {
      type: 'string',
      format: 'email',
      maxLength: 320,
      description: "The Openapi account's e-mail (the user of HTTP Basic on the OAuth host).",
    },
    api_key: {
      type: 'string',
      minLength: 8,
      maxLength: 500,
      pattern: '^\\S+$',
      description: 'The API key of the account (Openapi console); never shown again.',
    },
    test_mode: {
      type: 'boolean',
      description: "true: use the provider's test hosts. Left out: unchanged (false for a first save).",
    },
    token: {
      type: 'string',
      minLength: 8,
      maxLength: 2000,
      pattern: '^\\S+$',
      description:
        'A bearer token the service should use instead of minting its own (it needs the scopes a verification lists).',
    },
  },
} as const;
export type SaveOpenapiConfigInput = FromSchema<typeof SaveOpenapiConfigInput>;

export const OpenapiCredit = {
  $id: 'OpenapiCredit',
  type: 'object',
  description: "The Openapi account's wallet (`GET /wallet`): what pays for the requests sent to the provider.",
  additionalProperties: false,
  required: ['credit', 'currency', 'updated_at'],
  properties: {
    credit: { type: 'number', description: 'Credit left.' },
    currency: { type: 'string', enum: ['EUR'], description: 'Always EUR.' },
    updated_at: nullableTime('Last change of the wallet, as Openapi reports it (null when it does not).'),
  },
} as const;
export type OpenapiCredit = FromSchema<typeof OpenapiCredit>;

const TOKEN_PROPERTIES = {
  id: tokenId,
  hint: { type: 'string', description: 'Last 4 characters of the token, to recognise it.' },
  name: { type: ['string', 'null'], description: 'Its name at Openapi.' },
  scopes: scopeList('Its scopes.'),
  expires_at: nullableTime('When it expires.'),
  created_at: nullableTime('When it was made.'),
  service_token: { type: 'boolean', description: 'true: the token the service signs requests with.' },
  refreshable: {
    type: 'boolean',
    description: 'true: the service holds its refresh token (it was made or refreshed through these routes).',
  },
} as const;
const TOKEN_REQUIRED = Object.keys(TOKEN_PROPERTIES) as (keyof typeof TOKEN_PROPERTIES)[];

export const OpenapiTokenList = {
  $id: 'OpenapiTokenList',
  type: 'array',
  description:
    "The Openapi account's tokens (`GET /tokens`), each by its hint: a whole token is shown only when it is made.",
  items: {
    type: 'object',
    description: 'A token of the Openapi account.',
    additionalProperties: false,
    required: TOKEN_REQUIRED,
    properties: TOKEN_PROPERTIES,
  },
} as const;
export type OpenapiTokenList = FromSchema<typeof OpenapiTokenList>;
/** One token of the list. */
export type OpenapiTokenView = OpenapiTokenList[number];

export const CreatedOpenapiToken = {
  $id: 'CreatedOpenapiToken',
  type: 'object',
  description:
    'A token just made (or refreshed), with its value: shown this once. Its refresh token stays with the service.',
  additionalProperties: false,
  required: [...TOKEN_REQUIRED, 'token'],
  properties: {
    ...TOKEN_PROPERTIES,
    token: { type: 'string', description: 'The bearer token. Store it now: it is not shown again.' },
  },
} as const;
export type CreatedOpenapiToken = FromSchema<typeof CreatedOpenapiToken>;

export const CreateOpenapiTokenInput = {
  $id: 'CreateOpenapiTokenInput',
  type: 'object',
  description: 'A new token of the Openapi account (`POST /tokens`).',
  additionalProperties: false,
  required: ['scopes'],
  properties: {
    scopes: { ...scopeList('What the token may call.'), minItems: 1, maxItems: 100, uniqueItems: true },
    name: { type: 'string', minLength: 1, maxLength: 100, description: 'A name to recognise it by.' },
    ttl: {
      type: 'integer',
      minimum: 60,
      maximum: 31_536_000,
      description: "Lifetime in seconds, at most a year (Openapi's default when left out).",
    },
  },
} as const;
export type CreateOpenapiTokenInput = FromSchema<typeof CreateOpenapiTokenInput>;

export const OpenapiTokenIdInput = {
  $id: 'OpenapiTokenIdInput',
  type: 'object',
  description: 'One token of the Openapi account, by its id.',
  additionalProperties: false,
  required: ['id'],
  properties: { id: tokenId },
} as const;
export type OpenapiTokenIdInput = FromSchema<typeof OpenapiTokenIdInput>;

export const OpenapiTokenDeleted = {
  $id: 'OpenapiTokenDeleted',
  type: 'object',
  description: 'The token is deleted at Openapi: it no longer works.',
  additionalProperties: false,
  required: ['id', 'deleted'],
  properties: {
    id: tokenId,
    deleted: { type: 'boolean', enum: [true], description: 'Always true.' },
  },
} as const;
export type OpenapiTokenDeleted = FromSchema<typeof OpenapiTokenDeleted>;

export const signatureProviderAdminSchemas = [
  OpenapiVerification,
  OpenapiConfig,
  SaveOpenapiConfigInput,
  OpenapiCredit,
  OpenapiTokenList,
  CreatedOpenapiToken,
  CreateOpenapiTokenInput,
  OpenapiTokenIdInput,
  OpenapiTokenDeleted,
];
