import type { FromSchema } from 'json-schema-to-ts';

export const PurgeResult = {
  $id: 'PurgeResult',
  type: 'object',
  description: 'How many expired records a maintenance job deleted.',
  additionalProperties: false,
  required: ['deleted'],
  properties: { deleted: { type: 'integer', description: 'Rows deleted.' } },
} as const;
export type PurgeResult = FromSchema<typeof PurgeResult>;

export const maintenanceSchemas = [PurgeResult];
