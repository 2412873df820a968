import type { FromSchema } from 'json-schema-to-ts';

export const CreateTenantInput = {
  $id: 'CreateTenantInput',
  type: 'object',
  description: 'A platform tenant created by the operator, with its first keys.',
  additionalProperties: false,
  required: ['name', 'email', 'siret'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 255, description: 'Display name of the tenant.' },
    email: { type: 'string', format: 'email', maxLength: 255, description: 'Login and billing e-mail.' },
    siret: { type: 'string', pattern: '^[0-9]{14}$', description: 'SIRET: 14 digits, Luhn-valid.' },
    legal_name: { type: 'string', maxLength: 255, description: 'Registered legal name; defaults to name.' },
    is_partner: { type: 'boolean', default: false, description: 'Partners may onboard other tenants.' },
    kyb_status: {
      type: 'string',
      enum: ['pending', 'verified'],
      default: 'pending',
      description: 'KYB status to start with; `verified` lets production keys work at once.',
    },
  },
} as const;
export type CreateTenantInput = FromSchema<typeof CreateTenantInput>;

const keyPair = (what: string) =>
  ({
    type: 'object',
    description: `The ${what} keys, shown only once.`,
    additionalProperties: false,
    required: ['sandbox', 'production'],
    properties: {
      sandbox: { type: 'string', description: 'Sandbox (test) key.' },
      production: { type: 'string', description: 'Production (live) key.' },
    },
  }) as const;

export const CreatedTenant = {
  $id: 'CreatedTenant',
  type: 'object',
  description: 'The new tenant and its keys. The full keys are never shown again.',
  additionalProperties: false,
  required: ['tenant_id', 'secret_keys', 'publishable_keys'],
  properties: {
    tenant_id: { type: 'string', format: 'uuid', description: 'Id of the tenant.' },
    secret_keys: keyPair('secret'),
    publishable_keys: keyPair('publishable'),
  },
} as const;
export type CreatedTenant = FromSchema<typeof CreatedTenant>;

export const tenantSchemas = [CreateTenantInput, CreatedTenant];
