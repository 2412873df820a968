import type { FromSchema } from 'json-schema-to-ts';
import { BALANCE_TRANSACTION_TYPES } from '../domain/billing/index.js';

const nullableString = (description: string) => ({ type: ['string', 'null'], description }) as const;

export const TenantProfile = {
  $id: 'TenantProfile',
  type: 'object',
  description:
    'The calling tenant. Secrets never appear: keys are listed at /v1/tenant/auth/keys, the webhook secret is only shown when it is created.',
  additionalProperties: false,
  required: [
    'id',
    'parent_tenant_id',
    'name',
    'slug',
    'legal_name',
    'siret',
    'vat_number',
    'billing_email',
    'technical_email',
    'environment',
    'kyb_status',
    'kyb_verified_at',
    'balance',
    'webhook_url',
    'is_partner',
    'is_active',
    'settings',
    'created_at',
  ],
  properties: {
    id: { type: 'string', format: 'uuid', description: 'Id of the tenant.' },
    parent_tenant_id: {
      type: ['string', 'null'],
      format: 'uuid',
      description: 'The partner that registered this tenant, if any.',
    },
    name: { type: 'string', description: 'Display name.' },
    slug: { type: 'string', description: 'Unique readable identifier.' },
    legal_name: nullableString('Registered legal name.'),
    siret: nullableString('SIRET (14 digits).'),
    vat_number: nullableString('Intra-community VAT number.'),
    billing_email: nullableString('Where billing documents go.'),
    technical_email: nullableString('Where technical notices go.'),
    environment: {
      type: 'string',
      enum: ['sandbox', 'production'],
      description: 'Environment of the credential used for this request.',
    },
    kyb_status: {
      type: 'string',
      enum: ['pending', 'documents_submitted', 'under_review', 'verified', 'rejected'],
      description: 'KYB status; production keys need `verified`.',
    },
    kyb_verified_at: { type: ['string', 'null'], format: 'date-time', description: 'When KYB was verified.' },
    balance: { type: 'number', description: 'Prepaid production balance (EUR).' },
    webhook_url: nullableString('Where tenant-level webhooks are sent.'),
    is_partner: { type: 'boolean', description: 'Partners may register other tenants.' },
    is_active: { type: 'boolean', description: 'False when the tenant is deactivated.' },
    settings: {
      type: 'object',
      additionalProperties: true,
      description: 'Settings (`fiscal_permissions`, `invoice_prefix`, `default_vat_rate`, ...).',
    },
    created_at: { type: 'string', format: 'date-time', description: 'Creation time.' },
  },
} as const;

export type TenantProfile = FromSchema<typeof TenantProfile>;

export const UpdatedTenantProfile = {
  $id: 'UpdatedTenantProfile',
  type: 'object',
  description:
    'The tenant after the change. `webhook_secret` appears once, when a webhook_url is set where none was: it signs every delivery (regenerate it with POST /v1/tenant/regenerate-webhook-secret).',
  additionalProperties: false,
  required: TenantProfile.required,
  properties: {
    ...TenantProfile.properties,
    webhook_secret: {
      type: 'string',
      pattern: '^whsec_[A-Za-z0-9]{32}$',
      description: 'The signing secret of the new webhook_url (`whsec_` + 32 characters), shown this once.',
    },
  },
} as const;

export type UpdatedTenantProfile = FromSchema<typeof UpdatedTenantProfile>;

export const UpdateTenantProfileInput = {
  $id: 'UpdateTenantProfileInput',
  type: 'object',
  description: 'The writable profile fields; fields left out keep their value. Any other field is refused.',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 255, description: 'Display name.' },
    billing_email: { type: 'string', format: 'email', maxLength: 255, description: 'Where billing documents go.' },
    technical_email: {
      type: 'string',
      format: 'email',
      maxLength: 255,
      description: 'Where technical notices go.',
    },
    webhook_url: {
      type: ['string', 'null'],
      maxLength: 2000,
      description: 'https URL for tenant-level webhooks (http only where private URLs are allowed); null removes it.',
    },
  },
} as const;
export type UpdateTenantProfileInput = FromSchema<typeof UpdateTenantProfileInput>;

const countAndAmount = (description: string) =>
  ({
    type: 'object',
    description,
    additionalProperties: false,
    required: ['count', 'amount'],
    properties: {
      count: { type: 'integer', description: 'Number of transactions.' },
      amount: { type: 'number', description: 'Their signed sum (EUR): credits positive, debits negative.' },
    },
  }) as const;

export const TenantStats = {
  $id: 'TenantStats',
  type: 'object',
  description: "Counts of the calling tenant's data, read from its records at the time of the request.",
  additionalProperties: false,
  required: [
    'environment',
    'sub_tenants',
    'companies',
    'invoices_count',
    'credit_notes_count',
    'api_keys',
    'balance',
    'current_month',
  ],
  properties: {
    environment: {
      type: 'string',
      enum: ['sandbox', 'production'],
      description: 'Environment counted (that of the credential).',
    },
    sub_tenants: {
      type: 'object',
      description: "Sub-tenants of the caller's environment.",
      additionalProperties: false,
      required: ['total', 'active', 'suspended'],
      properties: {
        total: { type: 'integer', description: 'All sub-tenants.' },
        active: { type: 'integer', description: 'Active ones.' },
        suspended: { type: 'integer', description: 'Suspended ones.' },
      },
    },
    companies: {
      type: 'object',
      description: "Live companies: the tenant's own and those of its sub-tenants in this environment.",
      additionalProperties: false,
      required: ['total'],
      properties: { total: { type: 'integer', description: 'Companies not deleted.' } },
    },
    invoices_count: {
      type: 'integer',
      description: "Invoices of this environment, the tenant's own and its sub-tenants' (deleted drafts not counted).",
    },
    credit_notes_count: {
      type: 'integer',
      description:
        "Credit notes of this environment, the tenant's own and its sub-tenants' (deleted drafts not counted).",
    },
    api_keys: {
      type: 'object',
      description: "Working keys of the caller's environment.",
      additionalProperties: false,
      required: ['secret', 'publishable'],
      properties: {
        secret: { type: 'integer', description: 'Active secret keys.' },
        publishable: { type: 'integer', description: 'Active publishable keys.' },
      },
    },
    balance: {
      type: 'object',
      description: 'The prepaid production balance.',
      additionalProperties: false,
      required: ['amount', 'currency'],
      properties: {
        amount: { type: 'number', description: 'Available amount.' },
        currency: { type: 'string', description: 'ISO 4217 currency.' },
      },
    },
    current_month: {
      type: 'object',
      description: 'Balance transactions of the current calendar month (UTC).',
      additionalProperties: false,
      required: ['from', 'to', 'transactions'],
      properties: {
        from: { type: 'string', format: 'date', description: 'First day of the month.' },
        to: { type: 'string', format: 'date', description: 'Last day of the month.' },
        transactions: {
          type: 'object',
          description: 'Count and signed sum per transaction type (every type is present).',
          additionalProperties: false,
          required: [...BALANCE_TRANSACTION_TYPES],
          properties: Object.fromEntries(
            BALANCE_TRANSACTION_TYPES.map((type) => [type, countAndAmount(`\`${type}\` transactions.`)]),
          ) as Record<(typeof BALANCE_TRANSACTION_TYPES)[number], ReturnType<typeof countAndAmount>>,
        },
      },
    },
  },
} as const;
export type TenantStats = FromSchema<typeof TenantStats>;

export const tenantProfileSchemas = [TenantProfile, UpdatedTenantProfile, UpdateTenantProfileInput, TenantStats];
