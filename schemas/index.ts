import { authSchemas } from './auth.js';
import { billingSchemas } from './billing.js';
import { commonSchemas } from './common.js';
import { maintenanceSchemas } from './maintenance.js';
import { platformSchemas } from './platform.js';
import type { JsonSchema } from './registry.js';
import { tenantSchemas } from './tenants.js';
import { userSchemas } from './users.js';
import { webhookSchemas } from './webhooks.js';

/** Every schema of the service, registered once in ajv and emitted in OpenAPI and MCP. */
export const ALL_SCHEMAS: readonly JsonSchema[] = [
  ...commonSchemas,
  ...platformSchemas,
  ...tenantSchemas,
  ...userSchemas,
  ...billingSchemas,
  ...webhookSchemas,
  ...maintenanceSchemas,
  ...authSchemas,
];
