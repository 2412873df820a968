import type { FromSchema } from 'json-schema-to-ts';
import { pageOf, pageParams } from './common.js';

/** Limits of a sub-tenant's metadata (Stripe's: 50 keys of at most 40 characters, values of at most 500). */
export const METADATA_LIMITS = { keys: 50, keyLength: 40, valueLength: 500 } as const;

const STATUSES = ['active', 'suspended'] as const;
const ONBOARDING_STATUSES = ['pending', 'in_progress', 'completed'] as const;

// Path ids are plain strings here: a malformed id answers 404 NOT_FOUND (like an unknown one), not 422.
/** A malformed id in a path answers 404, like an unknown one (api/http/bind-route.ts). */
const pathId = (description: string) => ({ type: 'string', format: 'uuid', description }) as const;

const externalId = {
  type: 'string',
  minLength: 1,
  maxLength: 255,
  pattern: '^[^\\u0000-\\u001F\\u007F]+$',
  description: 'Your own identifier of the sub-tenant (unique per tenant and environment), used for lookup.',
} as const;
const name = { type: 'string', minLength: 1, maxLength: 255, pattern: '\\S', description: 'Display name.' } as const;
const email = { type: 'string', format: 'email', maxLength: 255, description: 'Contact e-mail.' } as const;
const siret = {
  type: 'string',
  pattern: '^[0-9]{14}$',
  description: 'SIRET: 14 digits, Luhn-valid (La Poste establishments excepted).',
} as const;
const vatNumber = {
  type: 'string',
  pattern: '^[A-Z]{2}[0-9A-Z+*.]{2,12}$',
  description: 'Intra-EU VAT number: country code then 2 to 12 characters (`FR` + 2-digit key + SIREN for France).',
} as const;

const addressInput = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  description: 'Postal address; a PUT replaces it as a whole.',
  properties: {
    line1: { type: 'string', minLength: 1, maxLength: 255, description: 'Street line.' },
    city: { type: 'string', minLength: 1, maxLength: 255, description: 'City.' },
    postal_code: { type: 'string', minLength: 1, maxLength: 20, description: 'Postal code.' },
  },
} as const;

const metadataValue = {
  anyOf: [
    { type: 'string', maxLength: METADATA_LIMITS.valueLength },
    { type: 'number' },
    { type: 'boolean' },
    { type: 'null' },
  ],
} as const;
const metadata = {
  type: 'object',
  maxProperties: METADATA_LIMITS.keys,
  propertyNames: { type: 'string', minLength: 1, maxLength: METADATA_LIMITS.keyLength },
  additionalProperties: metadataValue,
  description: `Your key-value data: at most ${METADATA_LIMITS.keys} keys of at most ${METADATA_LIMITS.keyLength} characters; values are strings (at most ${METADATA_LIMITS.valueLength} characters), numbers, booleans or null. A PUT replaces it as a whole.`,
} as const;

export const ListSubTenantsInput = {
  $id: 'ListSubTenantsInput',
  type: 'object',
  description: "Filters and page of the caller's sub-tenants (in the key's environment).",
  additionalProperties: false,
  properties: {
    ...pageParams(),
    status: { type: 'string', enum: STATUSES, description: 'Only sub-tenants with this status.' },
    onboarding_status: {
      type: 'string',
      enum: ONBOARDING_STATUSES,
      description: 'Only sub-tenants at this onboarding stage.',
    },
    q: {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      description: 'Case-insensitive search in name, email and external_id.',
    },
  },
} as const;
export type ListSubTenantsInput = FromSchema<typeof ListSubTenantsInput>;

export const CreateSubTenantInput = {
  $id: 'CreateSubTenantInput',
  type: 'object',
  description: 'A new sub-tenant (client, subsidiary or department) in the environment of the key.',
  additionalProperties: false,
  required: ['external_id', 'name'],
  properties: {
    external_id: externalId,
    name,
    email,
    siret,
    vat_number: vatNumber,
    address: addressInput,
    metadata,
  },
} as const;
export type CreateSubTenantInput = FromSchema<typeof CreateSubTenantInput>;

export const UpdateSubTenantInput = {
  $id: 'UpdateSubTenantInput',
  type: 'object',
  description: 'Fields to change; fields left out keep their value.',
  additionalProperties: false,
  required: ['id'],
  properties: {
    id: pathId('Id of the sub-tenant.'),
    external_id: externalId,
    name,
    email: { ...email, type: ['string', 'null'], description: 'Contact e-mail; null clears it.' },
    siret: { ...siret, type: ['string', 'null'], description: 'SIRET (14 digits, Luhn-valid); null clears it.' },
    vat_number: { ...vatNumber, type: ['string', 'null'], description: 'Intra-EU VAT number; null clears it.' },
    address: {
      ...addressInput,
      type: ['object', 'null'],
      description: 'Postal address, replaced as a whole; null clears it.',
    },
    metadata,
  },
} as const;
export type UpdateSubTenantInput = FromSchema<typeof UpdateSubTenantInput>;

export const SubTenantIdInput = {
  $id: 'SubTenantIdInput',
  type: 'object',
  description: 'One sub-tenant of the caller.',
  additionalProperties: false,
  required: ['id'],
  properties: { id: pathId('Id of the sub-tenant.') },
} as const;
export type SubTenantIdInput = FromSchema<typeof SubTenantIdInput>;

export const FindSubTenantByExternalIdInput = {
  $id: 'FindSubTenantByExternalIdInput',
  type: 'object',
  description: 'The sub-tenant that carries your identifier, in the environment of the key.',
  additionalProperties: false,
  required: ['externalId'],
  properties: { externalId: { type: 'string', description: 'Your external_id of the sub-tenant.' } },
} as const;
export type FindSubTenantByExternalIdInput = FromSchema<typeof FindSubTenantByExternalIdInput>;

export const SubTenantStatsInput = {
  $id: 'SubTenantStatsInput',
  type: 'object',
  description: 'The sub-tenant whose figures to read.',
  additionalProperties: false,
  required: ['subTenantId'],
  properties: { subTenantId: pathId('Id of the sub-tenant.') },
} as const;
export type SubTenantStatsInput = FromSchema<typeof SubTenantStatsInput>;

const nullableString = (description: string) => ({ type: ['string', 'null'], description }) as const;

export const SubTenant = {
  $id: 'SubTenant',
  type: 'object',
  description: "A tenant's client, subsidiary or department, with its own invoice numbering and fiscal chain.",
  additionalProperties: false,
  required: [
    'id',
    'tenant_id',
    'external_id',
    'name',
    'email',
    'siret',
    'vat_number',
    'address',
    'status',
    'metadata',
    'onboarding_status',
    'environment',
    'created_at',
    'updated_at',
  ],
  properties: {
    id: { type: 'string', format: 'uuid', description: 'Id of the sub-tenant.' },
    tenant_id: { type: 'string', format: 'uuid', description: 'The owning tenant.' },
    external_id: nullableString('Your identifier of the sub-tenant.'),
    name: { type: 'string', description: 'Display name.' },
    email: nullableString('Contact e-mail.'),
    siret: nullableString('SIRET (14 digits).'),
    vat_number: nullableString('Intra-EU VAT number.'),
    address: {
      type: 'object',
      description: 'Postal address (fields null when unknown).',
      additionalProperties: false,
      required: ['line1', 'city', 'postal_code'],
      properties: {
        line1: nullableString('Street line.'),
        city: nullableString('City.'),
        postal_code: nullableString('Postal code.'),
      },
    },
    status: { type: 'string', enum: STATUSES, description: 'active or suspended.' },
    metadata: { type: 'object', additionalProperties: metadataValue, description: 'Your key-value data.' },
    onboarding_status: { type: 'string', enum: ONBOARDING_STATUSES, description: 'Onboarding stage.' },
    environment: { type: 'string', enum: ['sandbox', 'production'], description: 'Environment of the sub-tenant.' },
    created_at: { type: 'string', format: 'date-time', description: 'Creation time.' },
    updated_at: { type: 'string', format: 'date-time', description: 'Last change.' },
  },
} as const;
export type SubTenant = FromSchema<typeof SubTenant>;

export const SubTenantList = pageOf('SubTenantList', 'SubTenant', 'A page of sub-tenants.');

export const SubTenantDeleted = {
  $id: 'SubTenantDeleted',
  type: 'object',
  description: 'The sub-tenant was deleted and its API keys revoked.',
  additionalProperties: false,
  required: ['message'],
  properties: { message: { type: 'string', description: 'What was done.' } },
} as const;
export type SubTenantDeleted = FromSchema<typeof SubTenantDeleted>;

export const SubTenantStatsOverview = {
  $id: 'SubTenantStatsOverview',
  type: 'object',
  description: 'Figures of one sub-tenant, counted from its rows at the time of the call.',
  additionalProperties: false,
  required: [
    'sub_tenant_id',
    'status',
    'onboarding_status',
    'created_at',
    'companies_count',
    'invoices_count',
    'credit_notes_count',
    'fiscal_entries_count',
    'last_sequence_number',
    'last_chain_hash',
    'last_fiscal_entry_at',
    'api_keys_count',
    'revoked_api_keys_count',
    'api_keys_last_used_at',
  ],
  properties: {
    sub_tenant_id: { type: 'string', format: 'uuid', description: 'Id of the sub-tenant.' },
    status: { type: 'string', enum: STATUSES, description: 'active or suspended.' },
    onboarding_status: { type: 'string', enum: ONBOARDING_STATUSES, description: 'Onboarding stage.' },
    created_at: { type: 'string', format: 'date-time', description: 'Creation time of the sub-tenant.' },
    companies_count: { type: 'integer', description: 'Companies of the sub-tenant (deleted ones not counted).' },
    invoices_count: { type: 'integer', description: 'Invoices of the sub-tenant (deleted drafts not counted).' },
    credit_notes_count: {
      type: 'integer',
      description: 'Credit notes of the sub-tenant (deleted drafts not counted).',
    },
    fiscal_entries_count: { type: 'integer', description: "Entries in the sub-tenant's fiscal chain." },
    last_sequence_number: { type: ['integer', 'null'], description: 'Sequence number of the last entry.' },
    last_chain_hash: nullableString('chain_hash of the last entry (SHA-256, hex).'),
    last_fiscal_entry_at: { type: ['string', 'null'], format: 'date-time', description: 'When it was recorded.' },
    api_keys_count: { type: 'integer', description: 'Active API keys bound to the sub-tenant.' },
    revoked_api_keys_count: { type: 'integer', description: 'Revoked API keys bound to the sub-tenant.' },
    api_keys_last_used_at: {
      type: ['string', 'null'],
      format: 'date-time',
      description: 'Last use of any of its keys.',
    },
  },
} as const;
export type SubTenantStatsOverview = FromSchema<typeof SubTenantStatsOverview>;

export const subTenantSchemas = [
  ListSubTenantsInput,
  CreateSubTenantInput,
  UpdateSubTenantInput,
  SubTenantIdInput,
  FindSubTenantByExternalIdInput,
  SubTenantStatsInput,
  SubTenant,
  SubTenantList,
  SubTenantDeleted,
  SubTenantStatsOverview,
];
