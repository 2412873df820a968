import type { FromSchema } from 'json-schema-to-ts';

export const CreateAdminInput = {
  $id: 'CreateAdminInput',
  type: 'object',
  description: 'A dashboard user with the `admin access` permission.',
  additionalProperties: false,
  required: ['email', 'password'],
  properties: {
    email: { type: 'string', format: 'email', maxLength: 255, description: 'Login e-mail.' },
    password: { type: 'string', minLength: 12, maxLength: 200, description: 'At least 12 characters.' },
    first_name: { type: 'string', maxLength: 100, default: 'Admin', description: 'First name.' },
    last_name: { type: 'string', maxLength: 100, default: '', description: 'Last name.' },
  },
} as const;
export type CreateAdminInput = FromSchema<typeof CreateAdminInput>;

export const CreatedAdmin = {
  $id: 'CreatedAdmin',
  type: 'object',
  description: 'The new admin user.',
  additionalProperties: false,
  required: ['user_id', 'tenant_id', 'email', 'role', 'permissions'],
  properties: {
    user_id: { type: 'string', format: 'uuid', description: 'Id of the user.' },
    tenant_id: { type: 'string', format: 'uuid', description: "Id of the user's workspace." },
    email: { type: 'string', description: 'Login e-mail.' },
    role: { type: 'string', description: 'Always `admin`.' },
    permissions: { type: 'array', items: { type: 'string' }, description: 'Granted permissions.' },
  },
} as const;
export type CreatedAdmin = FromSchema<typeof CreatedAdmin>;

export const userSchemas = [CreateAdminInput, CreatedAdmin];
