import type { EmptyInput } from '../../../schemas/common.js';
import type { OpenapiConfig } from '../../../schemas/signature-provider-admin.js';
import { defineQuery } from '../../shared/operation.js';
import { appKeyOf } from '../provider/openapi-token-store.js';
import { configView } from '../provider/openapi-tokens.js';

/** The configuration row is visible to the system only: it is read outside the caller's transaction. */
export const getOpenapiConfig = defineQuery<EmptyInput, OpenapiConfig>({
  name: 'get_openapi_config',
  summary:
    "Admin: read the signature provider's configuration: the Openapi account e-mail, test mode, the service's token by its last 4 characters and scopes, and the last verification. The API key and the token are never shown.",
  input: 'EmptyInput',
  output: 'OpenapiConfig',
  callers: ['user'],
  permission: 'admin access',
  transactional: false,
  async run(_input, ctx) {
    return configView(appKeyOf(ctx.deps), await ctx.deps.openapiAccount.row());
  },
});
